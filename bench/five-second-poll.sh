#!/usr/bin/env bash
# The fixed 5 s poll of SonarSource's sonarqube-quality-gate-action (script/check-quality-gate.sh),
# as a baseline for bench/real-server-latency.ts: the same requests at the same cadence, written
# here. It reads serverUrl and ceTaskUrl from the report file, asks for the task at once and,
# while it is PENDING or IN_PROGRESS, sleeps 5 s and asks again; then one request for the gate of
# the task's analysis. It prints the gate's status and exits 1 unless it is OK.
#
# bash bench/five-second-poll.sh <report-task.txt>   (SONAR_TOKEN in the environment)
set -u
report="$1"
server_url="$(sed -n 's/^serverUrl=//p' "$report")"
task_url="$(sed -n 's/^ceTaskUrl=//p' "$report")"
if [[ -z "$server_url" || -z "$task_url" ]]; then
  echo "no serverUrl or ceTaskUrl in $report" >&2
  exit 2
fi
ask() { curl --silent --fail --show-error --user "${SONAR_TOKEN}:" "$1"; }

task="$(ask "$task_url")" || exit 2
status="$(jq -r '.task.status' <<<"$task")"
while [[ "$status" == PENDING || "$status" == IN_PROGRESS ]]; do
  sleep 5s
  task="$(ask "$task_url")" || exit 2
  status="$(jq -r '.task.status' <<<"$task")"
done

analysis="$(jq -r '.task.analysisId' <<<"$task")"
gate="$(ask "${server_url}/api/qualitygates/project_status?analysisId=${analysis}" | jq -r '.projectStatus.status')"
echo "Quality Gate: ${gate}"
[[ "$gate" == OK ]]
