#!/bin/sh
# A minimal agent for skillgate's `command` adapter (docs/agent-protocol.md), in POSIX sh.
# Configure it in .skillgate.yml as `agent: {adapter: command, command: sh agents/agent.sh}` (a relative path
# resolves from the repository root). Replace the answer with a call to your own agent or model.
set -eu

# The prompt arrives on stdin; the trial workspace is the current folder.
prompt=$(cat)
lower=$(printf '%s' "$prompt" | tr 'A-Z' 'a-z')

# The skills installed for this trial (none in a baseline trial). Route as a router would: here, load a skill
# when the prompt names it (skill names are a-z, 0-9 and -, so they need no JSON escaping).
chosen=""
for dir in .agents/skills/*/; do
  [ -f "${dir}SKILL.md" ] || continue
  name=${dir%/}
  name=${name##*/}
  words=$(printf '%s' "$name" | tr '-' ' ')
  case "$lower" in *"$words"*) chosen=$name; break ;; esac
done

# One JSON object on stdout (command-reply.schema.json); diagnostics go to stderr.
if [ -n "$chosen" ]; then
  printf '{"output":"Following the %s skill.","skillsActivated":["%s"],"toolCalls":[{"name":"Skill","input":{"skill":"%s"},"turn":0}]}\n' \
    "$chosen" "$chosen" "$chosen"
else
  printf '{"output":"No skill applies; answering on my own.","skillsActivated":[],"toolCalls":[]}\n'
fi
echo "case ${SKILLGATE_CASE:-?} trial ${SKILLGATE_TRIAL:-?} (${SKILLGATE_MODE:-?})" >&2
