# Redaction replaces a secret value and nothing else (issue #15): each item
# of a -Wl, word is a word of its own, and a value no credential can be
# stays, so the analysis of a redacted record is the analysis of the link.
# LINKSCOPE_REDACT=0 writes a record unredacted, and tests/tools'
# redact-record applies the shim's own redaction to it.
. "$(dirname "$0")/lib.sh"
REDACT=$LK_BUILD/tests/redact-record

# report_of ARGS...: "OUTCOME N-DIAGNOSTICS N-FIXES" of report --replay-only ARGS last.
report_of() {
	"$LINKSCOPE" report --replay-only --format json "$@" last |
		"$PY" -c 'import json,sys; r=json.load(sys.stdin); d=r["diagnostics"]; print(r["predicted"]["outcome"], len(d), sum(len(x["fixes"]) for x in d))'
}

printf 'int foo(void);\nint main(void) { return foo(); }\n' >main.c
printf 'int foo(void) { return 0; }\n' >foo.c
cc -c main.c foo.c
ar rcs libfoo.a foo.o

# A record without the driver's -### view (as of a driver of another name):
# the analysis reads the line from argv, so a lost ",-lfoo" would make it fail.
export LINKSCOPE_EXPAND=failure
run_capture defsym "$SHIM" main.o -L. -Wl,--defsym,session_base=0,-lfoo -o prog
check_eq "a --defsym of session_base and -lfoo in one -Wl, word: ld links" 0 "$(cat "$T/defsym.rc")"
r=$(last_record)
check_eq "the word is kept exactly" "-Wl,--defsym,session_base=0,-lfoo" "$(rec "$r" 'r["argv"][3]')"
check_eq "nothing is redacted" "[]" "$(rec "$r" 'r["redactions"]')"
check_eq "the analysis says success and offers no fix" "success 0 0" "$(report_of --run-driver)"

# A secret-looking value in one item: only that value goes.
run_capture tok "$SHIM" main.o -L. -Wl,--defsym=api_token=0x12345678,-lfoo -o prog
check_eq "a --defsym of api_token=0x12345678: ld links" 0 "$(cat "$T/tok.rc")"
r=$(last_record)
check_eq "only the value of api_token is redacted" "-Wl,--defsym=api_token=[redacted],-lfoo" "$(rec "$r" 'r["argv"][3]')"
check_eq "no trace of it in the record" 0 "$(grep -c 0x12345678 "$r")"
check_eq "and the analysis still says success" "success 0 0" "$(report_of --run-driver)"
unset LINKSCOPE_EXPAND

# A compile-and-link call with no copy kept: --run-driver compiles the
# source again with the recorded defines.
cat >auth.c <<'C'
#if USE_AUTH
int foo(void);
int main(void) { return foo(); }
#endif
C
run_capture auth env LINKSCOPE_KEEP=0 "$SHIM" -DUSE_AUTH=1 -DAPI_KEY=k3y-s3cr3t-value auth.c -L. -lfoo -o prog
check_eq "cc -DUSE_AUTH=1 -DAPI_KEY=... auth.c -lfoo: ld links" 0 "$(cat "$T/auth.rc")"
r=$(last_record)
check_eq "-DUSE_AUTH=1 is kept, the API key redacted" "-DUSE_AUTH=1 -DAPI_KEY=[redacted]" "$(rec "$r" '" ".join(r["argv"][1:3])')"
check_eq "no trace of the API key" 0 "$(grep -c k3y-s3cr3t-value "$r")"
check_eq "compiled again, the source links: success, not unknown" "success 0 0" "$(report_of --run-driver)"

# LINKSCOPE_REDACT=0 keeps every string; redact-record gives what the shim
# writes of the same link (ld fails at --token: its message names it too).
export CFLAGS="-O2 --password=hunter2hunter2"
run_capture plain env LINKSCOPE_REDACT=0 "$SHIM" main.o -L. -Wl,--token=tok3n-value-99,-lfoo -o prog
ra=$(last_record)
run_capture redacted "$SHIM" main.o -L. -Wl,--token=tok3n-value-99,-lfoo -o prog
rb=$(last_record)
unset CFLAGS
check_eq "LINKSCOPE_REDACT=0: the secrets are kept" "-Wl,--token=tok3n-value-99,-lfoo -O2 --password=hunter2hunter2 []" \
	"$(rec "$ra" 'r["argv"][3] + " " + r["env"]["vars"]["CFLAGS"] + " " + str(r["redactions"])')"
check "the unredacted record validates" validate "$ra"
check "redact-record writes the record" "$REDACT" "$ra" "$T/redacted.json"
check "which validates" validate "$T/redacted.json"
# What the two links share (not the env's LINKSCOPE_REDACT nor the driver's temporary names).
fields='json.dumps([r[k] for k in ("argv", "argv_expanded", "stderr", "redactions")] +
	[{k: v for k, v in r["env"]["vars"].items() if k != "LINKSCOPE_REDACT"}, r["env"]["redacted"],
	 re.sub(r"/tmp/cc\w+\.res", "TMP", json.dumps(r["expansion"]["commands"]))], sort_keys=True)'
same() { "$PY" -c 'import json,re,sys; r=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$fields"; }
check_eq "and it redacts as the shim does" "$(same "$rb")" "$(same "$T/redacted.json")"
check_contains "ld's message keeps its closing quote" "$(rec "$rb" 'r["stderr"]["text"]')" "unrecognized option '--token=[redacted]'"
check_eq "no trace of the secrets in it" 0 "$(grep -c -e tok3n-value-99 -e hunter2hunter2 "$T/redacted.json")"
run_capture bad "$REDACT" "$T/nothere.json" "$T/x.json"
check_eq "an unreadable record: one line naming it" "1 redact-record: cannot read '$T/nothere.json'" \
	"$(cat "$T/bad.rc") $(cut -d: -f1-2 "$T/bad.err")"
finish
