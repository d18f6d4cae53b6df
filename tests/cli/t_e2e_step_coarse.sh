# End to end: t_e2e_step with the default buffer size, 8 MiB: at 15 MiB/s
# and -i 250ms an interval sees 0, 1 or 2 buffers finish, so interval
# rates alone are whole-buffer noise; the analysis must still find the
# step, the two rates and steady state as precisely.
STEP_BUFFER=8M
# shellcheck source=t_e2e_step.sh
. "$CLI_DIR/t_e2e_step.sh"
