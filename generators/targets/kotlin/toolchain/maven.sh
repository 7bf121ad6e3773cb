# Sourced by the Kotlin scripts: `maven <args>` runs Maven offline (-o: the shared ~/.m2 should
# already hold everything), and when offline Maven could not *resolve* something (an artifact, a
# plugin, a plugin prefix, version metadata, a parent POM) runs it once more online to fetch it
# (a first run on a new machine). Output goes to the terminal.
#
# Whether a failure is a resolution failure is read from the exception class Maven names in its
# "[Help N] http://cwiki.apache.org/confluence/display/MAVEN/<Exception>" lines, not from the
# wording of the message: the wording differs per case ("No plugin found for prefix",
# "No versions available ... within specified range") and across Maven versions. The recorded
# offline failures in offline-failures/ are what maven.test.ts replays through this function.
MAVEN_RESOLUTION_FAILURES='NoPluginFoundForPrefixException|PluginResolutionException|DependencyResolutionException|UnresolvableModelException|ArtifactResolutionException|ArtifactNotFoundException|PluginVersionResolutionException'

maven_offline_failure_is_resolution() {
  grep -qE "MAVEN/($MAVEN_RESOLUTION_FAILURES)\b|in offline mode|has not been downloaded from it before" "$1"
}

maven() {
  local log
  log=$(mktemp)
  if nice mvn -B -ntp -o "$@" 2>&1 | tee "$log"; [ "${PIPESTATUS[0]}" -eq 0 ]; then rm -f "$log"; return 0; fi
  if maven_offline_failure_is_resolution "$log"; then
    rm -f "$log"
    echo "maven: offline Maven could not resolve something ~/.m2 lacks; running once online to fetch it" >&2
    nice mvn -B -ntp "$@"
    return
  fi
  rm -f "$log"
  return 1
}
