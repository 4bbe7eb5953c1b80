// Pretraining of the embedded engine's base checkpoint (`npm run pretrain`). In: a seed and
// sizes. Out: checkpoints/base/ (weights, config, tokenizer, base_rates.json). The synthetic
// corpus is short assistant dialogues whose answers vary along five independent style
// dimensions (markdown, terse, casual, lowercase, sign-off) with a skewed base distribution,
// plus dialogues where a `[user's hint / instruction]` line asks for a style and the answer
// follows it — so rewards (binary RL) and hints (OPD) can both move the model. detectStyles is
// the shared yardstick for those styles (base rates here, simulated users' ratings elsewhere).

export {
  detectStyles,
  splitSignoff,
  casualMarkers,
  hasMinorityStyle,
  STYLE_NAMES,
  MINORITY,
  type StyleName,
  type Styles,
} from './styles.ts';
export { STYLE_INSTRUCTIONS, COMPLAINTS, THANKS, SYSTEM_PROMPTS } from './instructions.ts';
export { TOPICS, QUESTION_TEMPLATES, HELD_OUT_TEMPLATES, question, type Topic, type TopicCategory } from './topics.ts';
export { renderAnswer, casualize, SIGNOFFS } from './render.ts';
export {
  generateCorpus,
  generateDialogue,
  heldOutPrompts,
  withHint,
  DEFAULT_CORPUS,
  type CorpusOptions,
  type Dialogue,
  type DialogueKind,
  type HeldOutPrompt,
} from './corpus.ts';
export { dialogueExample, promptIds, tokenizerTexts } from './encode.ts';
export {
  measureBaseRates,
  formatBaseRates,
  paraphraseRatio,
  type BaseRateOptions,
  type BaseRateReport,
  type HintedRateSet,
  type RateSet,
} from './base-rates.ts';
export { MINORITY_PARAPHRASES, MAJORITY_PARAPHRASES, drawParaphrase, type ParaphrasePool } from './paraphrases.ts';
export { runPretrain, lengthBuckets, DEFAULT_PRETRAIN, type PretrainOptions, type PretrainResult } from './run.ts';
export { BASE_RECIPE, phaseArgs, runRecipe, type PretrainPhase } from './recipe.ts';
