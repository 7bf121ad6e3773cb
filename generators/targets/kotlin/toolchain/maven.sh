# Sourced by the Kotlin scripts: `maven <args>` runs Maven offline (-o, the shared ~/.m2 must
# already hold everything), and only when Maven says an artifact is missing from ~/.m2 runs it
# once more online to fetch it (a first run on a new machine). Output goes to the terminal.
maven() {
  local log
  log=$(mktemp)
  if nice mvn -B -ntp -o "$@" 2>&1 | tee "$log"; [ "${PIPESTATUS[0]}" -eq 0 ]; then rm -f "$log"; return 0; fi
  if grep -qE "offline mode|has not been downloaded from it before|Cannot access .* in offline mode" "$log"; then
    rm -f "$log"
    echo "maven: ~/.m2 lacks an artifact; running once online to fetch it" >&2
    nice mvn -B -ntp "$@"
    return
  fi
  rm -f "$log"
  return 1
}
