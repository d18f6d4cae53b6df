# slowdown.sh - sourced by both test runners: WS_SLOW, how many times
# slower the build SANITIZE names runs, which stretches their time limits
# alike (Check's per test, the CLI tests' per test).
case ${SANITIZE:-} in
'') WS_SLOW=1 ;;
asan) WS_SLOW=3 ;;
tsan) WS_SLOW=5 ;;
*) echo "unknown SANITIZE='$SANITIZE' (asan, tsan or empty)" >&2; exit 2 ;;
esac
