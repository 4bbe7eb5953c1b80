// CLI flags shared by `train` and `api-server` (docs/design.md §4), and their mapping onto config key
// paths. Flags win over the config file; every flag shows up in the logged (redacted) config.
import { type Command, InvalidArgumentError, Option } from 'commander';
import type { ConfigOverrides } from '../config/index.ts';
import { MODES } from '../methods/index.ts';

function number(flag: string, check: (n: number) => boolean, what: string) {
  return (value: string) => {
    const n = Number(value);
    if (value.trim() === '' || !Number.isFinite(n) || !check(n)) throw new InvalidArgumentError(`${flag} expects ${what}, got '${value}'`);
    return n;
  };
}
const positiveInt = (flag: string) => number(flag, (n) => Number.isInteger(n) && n > 0, 'a positive integer');
const nonNegInt = (flag: string) => number(flag, (n) => Number.isInteger(n) && n >= 0, 'an integer ≥ 0');
const nonNeg = (flag: string) => number(flag, (n) => n >= 0, 'a number ≥ 0');
const positive = (flag: string) => number(flag, (n) => n > 0, 'a number > 0');

/** Parser for a number > 0 (seconds, rates). */
export const positiveNumber = positive;

/** Parser for an integer in [min, max]. */
export function intAtLeast(flag: string, min: number, max = Number.MAX_SAFE_INTEGER) {
  const what = max === Number.MAX_SAFE_INTEGER ? `an integer ≥ ${min}` : `an integer ${min}-${max}`;
  return number(flag, (n) => Number.isInteger(n) && n >= min && n <= max, what);
}

/** Adds the serving flags (host, port, config, key, output dir). */
export function addServeOptions(cmd: Command): Command {
  return cmd
    .option('--config <file>', 'YAML config file (see configs/model_config.example.yaml)')
    .option('--host <host>', 'address to listen on (server.host)')
    .option(
      '--port <port>',
      'port to listen on, 0 = any free port (server.port)',
      number('--port', (n) => Number.isInteger(n) && n >= 0 && n <= 65535, 'a port 0-65535'),
    )
    .option('--api-key <key>', 'bearer key clients must send (server.api_key; or OPENCLAW_RL_API_KEY)')
    .option('--output-dir <dir>', 'run folder for logs/, records/, the sample store and checkpoints (output_dir)');
}

/** Adds the mode and scoring/training flags (README "CLI"). */
export function addTrainingOptions(cmd: Command): Command {
  return cmd
    .addOption(new Option('--mode <mode>', 'training signal').choices([...MODES]))
    .option('--no-entropy-reg', 'no entropy regularisation (training.entropy_coef = 0; the default)')
    .option('--kl-coef <x>', 'coefficient of low_var_kl to the reference policy (training.kl_coef)', nonNeg('--kl-coef'))
    .option('--clip-ratio <x>', 'PPO clip ε (training.clip_ratio)', positive('--clip-ratio'))
    .option('--clip-ratio-high <x>', 'PPO upper clip ε_high (training.clip_ratio_high)', positive('--clip-ratio-high'))
    .option('--at-least-one', 'openclaw-rl: train the first judged turn of a session that has no trainable turn')
    .option('--no-at-least-one', 'turn at-least-one off')
    .option('--majority-vote <m>', 'judge votes per turn (scoring.majority_vote)', positiveInt('--majority-vote'))
    .option('--hint-reject', 'openclaw-opd: drop turns without an accepted hint')
    .option('--no-hint-reject', 'turn hint-reject off')
    .option('--force-drop', 'openclaw-opd: drop turns that never got a next state')
    .option('--no-force-drop', 'turn force-drop off')
    .option('--three-way-dispatch', 'openclaw-combine: opd+rl / opd / rl / nothing per turn')
    .option('--no-three-way-dispatch', 'turn three-way dispatch off')
    .option('--batch-size <n>', 'samples per training step (training.batch_size)', positiveInt('--batch-size'))
    .option('--lr <x>', 'learning rate (training.lr)', positive('--lr'))
    .option('--save-interval <n>', 'checkpoint every N steps, 0 = at exit only (training.save_interval)', nonNegInt('--save-interval'))
    .option('--max-staleness <n>', 'drop samples more than N policy versions old (training.max_staleness)', nonNegInt('--max-staleness'));
}

/** Commander's parsed options → dotted config overrides (undefined = not given). */
export function overridesFrom(o: Record<string, unknown>, cmd: Command): ConfigOverrides {
  // Negatable booleans default to true in commander; only count them when given on the command line.
  const given = (name: string) => cmd.getOptionValueSource(name) === 'cli';
  const bool = (name: string) => (given(name) ? o[name] : undefined);
  return {
    mode: o.mode,
    output_dir: o.outputDir,
    'server.host': o.host,
    'server.port': o.port,
    'training.entropy_coef': given('entropyReg') && o.entropyReg === false ? 0 : undefined,
    'training.kl_coef': o.klCoef,
    'training.clip_ratio': o.clipRatio,
    'training.clip_ratio_high': o.clipRatioHigh,
    'training.at_least_one': bool('atLeastOne'),
    'scoring.majority_vote': o.majorityVote,
    'training.hint_reject': bool('hintReject'),
    'training.force_drop': bool('forceDrop'),
    'training.three_way_dispatch': bool('threeWayDispatch'),
    'training.batch_size': o.batchSize,
    'training.lr': o.lr,
    'training.save_interval': o.saveInterval,
    'training.max_staleness': o.maxStaleness,
  };
}
