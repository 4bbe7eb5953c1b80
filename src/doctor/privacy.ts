// The doctor's privacy rows: which channel reads the recorded conversations as they are and which
// reads them redacted, under the current config (docs/privacy.md). Reports, not checks: nothing
// is contacted, and a row never fails.
import { rolloutFacts, type Config } from '../config/index.ts';
import { tinkerEndpoint } from '../engines/tinker/index.ts';
import { isLocalUrl } from '../privacy/index.ts';
import type { DoctorRow } from './row.ts';

function row(channel: string, baseUrl: string, result: string, fix = ''): DoctorRow {
  return { channel: 'privacy', baseUrl, model: channel, ok: true, info: true, result, fix };
}

/** One row per channel that reads turns: the judge, the teacher and a Tinker trainer. */
export function privacyRows(config: Config): DoctorRow[] {
  const { mode, local_hosts: local, hosted_trainer } = config.privacy;
  const rows: DoctorRow[] = [];
  const judgeUrl = config.judge.base_url;
  if (judgeUrl === undefined) rows.push(row('judge', '-', 'reads turns in this process: unredacted, nothing leaves'));
  else if (isLocalUrl(judgeUrl, local)) rows.push(row('judge', judgeUrl, 'on a local host (privacy.local_hosts): reads turns unredacted'));
  else if (mode !== 'off') rows.push(row('judge', judgeUrl, 'remote: reads turns with secrets and personal data replaced by placeholders'));
  else rows.push(row('judge', judgeUrl, 'remote: reads turns UNREDACTED (privacy.mode: off)', 'set privacy.mode: redact'));
  const teacherUrl = config.teacher.base_url;
  if (teacherUrl === undefined || isLocalUrl(teacherUrl, local))
    rows.push(row('teacher', teacherUrl ?? '-', 'on this machine: reads hinted prompts unredacted'));
  else if (mode !== 'off')
    rows.push(row('teacher', teacherUrl, 'remote: reads hinted prompts with secrets and personal data replaced by placeholders'));
  else rows.push(row('teacher', teacherUrl, 'remote: reads hinted prompts UNREDACTED (privacy.mode: off)', 'set privacy.mode: redact'));
  if (mode === 'strict')
    rows.push(row('samples', '-', 'privacy.mode strict: turns holding personal data are never samples (personal_in_sample)'));
  if (rolloutFacts(config).reach === 'tinker') {
    const url = tinkerEndpoint(config).baseUrl;
    if (isLocalUrl(url, local)) rows.push(row('tinker', url, 'trainer on a local host: gets every sample'));
    else if (hosted_trainer === 'drop')
      rows.push(
        row('tinker', url, 'hosted trainer: gets samples as token ids; those whose prompt holds a secret are dropped (secret_in_sample)'),
      );
    else
      rows.push(
        row(
          'tinker',
          url,
          'hosted trainer: gets every sample, secrets included (privacy.hosted_trainer: allow)',
          'set privacy.hosted_trainer: drop',
        ),
      );
  }
  return rows;
}
