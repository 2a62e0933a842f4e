# Records keep an allow-list of the environment, never the whole of it, and
# redact anything that looks like a credential.
. "$(dirname "$0")/lib.sh"

write_main
GITHUB_TOKEN=ghp_0123456789abcdefghijABCDEFGHIJ012345 \
AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMIK7MDENGbPxRfiCYEXAMPLEKEY \
HOME_SECRET_THING=plain-secret-value \
RUSTFLAGS="-Cdebuginfo=1 --cfg=x https://ci-bot:S3cretPassw0rd@git.example.com/r.git" \
CFLAGS="-O2 --password=hunter2hunter2" \
CARGO_TARGET_X_REGISTRY_TOKEN=cargo-token-value \
CARGO_PKG_NAME=demo \
	"$SHIM" main.o -o x
r=$(last_record)
check "record validates" validate "$r"
for secret in ghp_0123456789abcdefghijABCDEFGHIJ012345 wJalrXUtnFEMIK7MDENGbPxRfiCYEXAMPLEKEY \
	plain-secret-value S3cretPassw0rd hunter2hunter2 cargo-token-value; do
	check_eq "no trace of ${secret:0:8}... in the record" 0 "$(grep -c -- "$secret" "$r")"
done
check_eq "non-allow-listed variables are absent" "False False False" \
	"$(rec "$r" '" ".join(str(k in r["env"]["vars"]) for k in ("GITHUB_TOKEN", "AWS_SECRET_ACCESS_KEY", "HOME"))')"
check_eq "RUSTFLAGS kept with the password redacted" \
	"-Cdebuginfo=1 --cfg=x https://ci-bot:[redacted]@git.example.com/r.git" "$(rec "$r" 'r["env"]["vars"]["RUSTFLAGS"]')"
check_eq "CFLAGS kept with the option value redacted" "-O2 --password=[redacted]" "$(rec "$r" 'r["env"]["vars"]["CFLAGS"]')"
check_eq "an allow-listed name that says TOKEN is redacted whole" "[redacted]" \
	"$(rec "$r" 'r["env"]["vars"]["CARGO_TARGET_X_REGISTRY_TOKEN"]')"
check_eq "ordinary variables kept as they are" "demo" "$(rec "$r" 'r["env"]["vars"]["CARGO_PKG_NAME"]')"
check_eq "the redacted names are listed" "['CARGO_TARGET_X_REGISTRY_TOKEN', 'CFLAGS', 'RUSTFLAGS']" \
	"$(rec "$r" 'r["env"]["redacted"]')"
finish
