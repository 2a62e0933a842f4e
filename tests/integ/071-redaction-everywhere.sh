# Credentials are redacted in every field of a record alike (argv, argv_expanded,
# the -### commands, stderr, rustc's argv and link_args, env), each redaction is
# listed in "redactions", and the analyzer still reads the record.
. "$(dirname "$0")/lib.sh"

write_main
run_capture link env RUSTFLAGS="-Cdebuginfo=1 https://bob:pa/ss@w0rd@git.example.com/r.git" \
	CFLAGS="-H 'Authorization: Bearer Zm9vYmFyYmF6cXV4' -O2" \
	LDFLAGS="-H 'Authorization: Basic dXNlcjpzZWNyZXRwYXNz'" \
	"$SHIM" main.o -Wl,--password=hunter2hunter2 -Wl,--api-token=tok3n-value-99 -o x
r=$(last_record)
check "record validates" validate "$r"
check_eq "the link failed as it would (ld knows no --password)" 1 "$(cat "$T/link.rc")"
for secret in pa/ss@w0rd ss@w0rd Zm9vYmFyYmF6cXV4 dXNlcjpzZWNyZXRwYXNz hunter2hunter2 tok3n-value-99; do
	check_eq "no trace of '$secret' anywhere in the record" 0 "$(grep -c -- "$secret" "$r")"
done
check_eq "URL password with '/' and '@' redacted" "-Cdebuginfo=1 https://bob:[redacted]@git.example.com/r.git" \
	"$(rec "$r" 'r["env"]["vars"]["RUSTFLAGS"]')"
check_eq "Authorization: Bearer redacted" "-H 'Authorization: Bearer [redacted]' -O2" "$(rec "$r" 'r["env"]["vars"]["CFLAGS"]')"
check_eq "the argv is kept exactly but for the redaction" "-Wl,--password=[redacted]" "$(rec "$r" 'r["argv"][2]')"
check_eq "argv_expanded alike" "-Wl,--api-token=[redacted]" "$(rec "$r" 'r["argv_expanded"][3]')"
paths=$(rec "$r" '" ".join(r["redactions"])')
for p in "argv[2]" "argv[3]" "argv_expanded[2]" "argv_expanded[3]" "stderr.text" "env.vars.CFLAGS" "env.vars.LDFLAGS" "env.vars.RUSTFLAGS"; do
	check_contains "redactions lists $p" " $paths " " $p "
done
check_contains "the -### commands are redacted too" "$paths" "expansion.commands["
"$LINKSCOPE" show "$r" >/dev/null
check_eq "the analyzer reads the redacted record" 0 "$?"

# rustc: its argv and its -C link-arg values (caller.link_args) alike.
cat >m.rs <<'RS'
fn main() {}
RS
rustc -C linker="$SHIM" -C link-arg=-Wl,--token=rustsecret12345 m.rs -o m >/dev/null 2>&1
r=$(last_record)
check_eq "rustc link recorded" rustc "$(rec "$r" 'r["caller"]["kind"]')"
check_eq "no trace of the -C link-arg secret" 0 "$(grep -c rustsecret12345 "$r")"
check_eq "caller.link_args redacted like caller.argv" "-Wl,--token=[redacted]" "$(rec "$r" 'r["caller"]["link_args"][0]')"
check_contains "and listed" "$(rec "$r" '" ".join(r["redactions"])')" "caller.link_args[0]"
finish
