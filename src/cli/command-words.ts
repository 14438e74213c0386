/** Each input the core's messages name, with the command's option for it. */
const OPTIONS = [
  ['taskId', '--task-id'],
  ['analysisId', '--analysis-id'],
  ['scanMetadataReportFile', '--report'],
  ['sonarHostUrl', '--host'],
  ['sonarRootCert', '--root-cert-file'],
  ['pollingTimeoutSec', '--timeout'],
  ['initialDelayMs', '--initial-delay'],
  ['pollingIntervalMs', '--interval'],
  ['failOn', '--fail-on']
] as const

/**
 * The core's messages name the action's inputs ("raise pollingTimeoutSec", "set the sonarHostUrl
 * input"): the command says the same with its own options. taskId and analysisId are also the
 * server's field names, so they are renamed only where a message speaks of the input.
 */
const RENAMED: ReadonlyArray<readonly [RegExp, string]> = [
  // The command writes no job summary: its files hold what the summary would.
  [/\bsee the job summary\b/g, 'see the --markdown or --json file'],
  [
    /\bthe SONAR_TOKEN environment variable or the sonarToken input\b/g,
    'the SONAR_TOKEN environment variable'
  ],
  [/\bthe sonarToken input\b|\bsonarToken (?:\(or SONAR_TOKEN\)|or SONAR_TOKEN)/g, 'SONAR_TOKEN'],
  [
    /\bsonarRootCert (?:\(or SONAR_ROOT_CERT\)|or SONAR_ROOT_CERT)/g,
    'SONAR_ROOT_CERT or --root-cert-file'
  ],
  ...OPTIONS.flatMap(([input, option]) => [
    [new RegExp(`\\b(?:the )?${input} input\\b`, 'g'), `the ${option} option`] as const,
    [new RegExp(`\\binput ${input}\\b`, 'g'), `option ${option}`] as const
  ]),
  // The server's field names (taskId, analysisId) are not renamed on their own.
  ...OPTIONS.filter(([input]) => input !== 'taskId' && input !== 'analysisId').map(
    ([input, option]) => [new RegExp(`\\b${input}\\b`, 'g'), option] as const
  )
]

/**
 * A message of the core in the command's words.
 *
 * @example inCommandWords('set the sonarHostUrl input or SONAR_HOST_URL') // 'set the --host option or SONAR_HOST_URL'
 */
export function inCommandWords(message: string): string {
  return RENAMED.reduce((text, [pattern, words]) => text.replace(pattern, words), message)
}
