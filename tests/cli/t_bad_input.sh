# Bad command lines: each exits 2, prints exactly one "writestress: ..."
# line naming what was wrong (the option and its value where there is one)
# and the --help pointer, writes nothing to stdout and creates no file.
# shellcheck source=lib.sh
. "$CLI_DIR/lib.sh"

HINT="Try 'writestress --help' for more information."
rows=0

# arguments (split on blanks) | fixed strings the message must contain (';' between)
while IFS='|' read -r args needles; do
	case $args in '' | '#'*) continue ;; esac
	set -f
	# shellcheck disable=SC2086 # the table's arguments are meant to split
	ws $args
	set +f
	assert_usage_error 'writestress: ' "$HINT" "$needles" "writestress $args"
	assert_dir_only "$WORK"
	rows=$((rows + 1))
done <<'TABLE'
-B 3x f                           |--buffer-size;'3x';unknown suffix 'x'
-B 0 f                            |--buffer-size;'0'
-B 1000 f                         |--buffer-size;'1000'
-B 2G f                           |--buffer-size;'2G'
-b 0 f                            |--buffers;'0';must be at least 1
-B 1000 f                         |--buffer-size;'1000';must be at least 4 KiB
--target-latency 2min --pace adaptive f |--target-latency;'2min';must be at most 1m00s
--stall 10us f                    |--stall;'10us';must be at least 1.00 ms
matrx f.dat                       |FILE 'matrx';did you mean writestress matrix?;./matrx
help                              |FILE 'help';did you mean writestress --help?
-s 1G matrix                      |FILE 'matrix';a subcommand comes first;writestress matrix
reprot                            |FILE 'reprot';did you mean writestress report?
verfy f                           |FILE 'verfy';did you mean writestress verify?
--json f.dat                      |missing FILE operand;--json took 'f.dat' as its value
-s 1G -B 1M                       |missing FILE operand;-B took '1M' as its value
-b -5 f                           |--buffers;'-5'
-b abc f                          |--buffers;'abc'
--buffers= f                      |--buffers;''
-b 1e3 f                          |--buffers;'1e3'
--size 0 f                        |--size;'0'
--size -1 f                       |--size;'-1'
--size 99999999999999999999999 f  |--size;'99999999999999999999999'
--size 4q f                       |--size;'4q'
--size 12abck f                   |--size;'12abck'
--time 0 f                        |--time;'0'
--time 5x f                       |--time;'5x'
--rate 0 f                        |--rate;'0'
--rate 5M/h f                     |--rate;'5M/h'
-r 50 f                           |--rate;'50';a rate needs a unit
--color sometimes f               |--color;'sometimes';auto, always or never
--rate 50mb/s f                   |--rate;'50mb/s';unknown suffix 'mb' (B; binary: k K Ki KiB
-t 5secs f                        |--time;'5secs';unknown suffix 'secs' (ns, us or µs, ms, s or sec, min, h, d)
frobnicate                        |refusing to write 'frobnicate' without a bound;-t 30s, -s 1G or -b 100;--forever
--pace none f                     |refusing to write 'f' without a bound
--forever -t 5s f                 |--forever and --time: give one
--forever -s 1G f                 |--forever and --size: give one
-t 5m f                           |--time;'5m';'m' is mebibytes, not minutes (did you mean 5min?)
-t 2.5M f                         |--time;'2.5M';did you mean 2.5min?
-t 5 min f                        |FILE 'min';a unit cut from its number: did you mean -t 5min?;./min
-t 5 m f                          |FILE 'm';did you mean -t 5min?
-s 100 M f                        |--size;'100';must be at least 4 KiB (did you mean 100M?)
-s 4095 f                         |--size;'4095';did you mean 4095M?
-t 1s -r 50M/s MiB f              |FILE 'MiB';reads as a unit, not a file
-t 1s run                         |FILE 'run';no subcommand 'run';./run
-t 1s status                      |FILE 'status';no subcommand 'status'
-t 1s bench                       |FILE 'bench';no subcommand 'bench'
-t 1s mtrix                       |FILE 'mtrix';did you mean writestress matrix?
-t 1s comprae                     |FILE 'comprae';did you mean writestress compare?
--json o.json --csv ./o.json -t 1s f |--csv './o.json';the same file as --json 'o.json'
--svg f -t 1s f                   |--svg 'f';the same file as the target FILE 'f'
--prom p.prom -t 1s a p.prom      |--prom 'p.prom';the same file as the target FILE 'p.prom'
-b 10 -s 1G f                     |-b 10 and --size both say how much to write
--bs 1M f                         |'--bs';fio's name;-B/--buffer-size
--runtime 5 f                     |'--runtime';-t/--time
--buf 1M f                        |'--buf' is ambiguous;--buffers or --buffer-size
--szie 1G f                       |'--szie';did you mean --size?
bs=1M count=10 of=f               |'bs=1M';dd's syntax;-B 1M
--pace bogus f                    |--pace;'bogus'
--window 0 f                      |--window;'0'
--data foo f                      |--data;'foo'
--data compressible=101 f         |--data;'compressible=101'
--interval 1ms f                  |--interval;'1ms'
--file-size 1000 f                |--file-size;'1000'
--fadvise --pace none f           |--fadvise;none
--window 2 --pace none f          |--window;none
--sync-every 2 f                  |--sync-every;window
--bogus f                         |'--bogus'
-Z f                              |'-Z'
--jobs 2 f g                      |--jobs 2;'g'
f y f                             |'f';named twice
f g                               |FILE 'g';reads as a unit, not a file;./g
--jobs 9 f                        |--jobs;'9'
--iodepth 4 f                     |--iodepth;window
--target-latency 50ms f           |--target-latency;adaptive;window
--pace adaptive --target-latency 0 f |--target-latency;'0'
--pace adaptive --target-latency 5x f |--target-latency;'5x'
--pace adaptive --window 2 f      |--window;adaptive
--steer-by fsync f                |--steer-by;adaptive;window
--pace adaptive --steer-by nope f |--steer-by;'nope';unknown probe
--pace adaptive --steer-by fsync, f |--steer-by;'fsync,'
--pace adaptive --steer-by sqlite f |--steer-by sqlite;does not run;--probe
--headroom 5 f                   |--headroom;adaptive;window
--pace adaptive --headroom 51 f   |--headroom;'51';between 0 and 50
--pace adaptive --headroom 5% f   |--headroom;'5%';whole number
f -b                              |'-b'
-b                                |'-b'
f --size                          |'--size'
TABLE
assert_ge "$rows" 33 "rows of the table checked"

# "missing FILE": an empty row cannot be in the table above
ws -b 1
assert_status 2
assert_lines "$ERR" 2 "stderr of: writestress -b 1"
assert_file_match "$ERR" '^writestress: missing FILE' "message of: writestress -b 1"
assert_eq "$HINT" "$(sed -n 2p "$ERR")" "second line of: writestress -b 1"

# an unknown FILE's directory is named, and what is wrong with it: not
# there, or one that takes no new files (exit 1: a failure to open, not a
# command line's mistake)
ws -s 1M nodir/f
assert_status 1
assert_file_match "$ERR" "^writestress: cannot open 'nodir/f': No such file or directory$" "a missing directory"
assert_file_match "$ERR" "^hint: the directory 'nodir' does not exist: create it first" "the missing directory named"
ws -s 1M /proc/ws-test
assert_status 1
assert_file_match "$ERR" "^hint: '/proc' takes no new files" "a directory that takes no new files"
# a file really named like a subcommand, on purpose
ws -s 1M -q ./help
assert_status 0
assert_size "$WORK/help" $((1024 * 1024))
# a word that reads as a unit or a near miss is a file once it exists
ws -s 4k -q ./min
assert_status 0
ws -s 8k -q --no-probe -t 5 min
assert_status 0
assert_size "$WORK/min" 8192
ws -s 4k -q ./matrx
assert_status 0
ws -s 8k -q --no-probe matrx
assert_status 0
assert_size "$WORK/matrx" 8192
