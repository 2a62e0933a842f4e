# --gc-sections replayed as bfd collects sections. The real ld is the
# oracle twice: its exit status, and its --print-gc-sections list, whose
# length must equal the count of sections the replay collects.
. "$(dirname "$0")/lib.sh"
# Records carry the driver's -### view: the analyzer runs no driver unless asked.
export LINKSCOPE_EXPAND=always

# outcome: "succeeds" or "fails" under GNU ld's rules, from the replay of the last record.
outcome() { "$LINKSCOPE" explain --replay-only last | sed -n 's/.*the link \(succeeds\|fails\) under GNU ld.*/\1/p' | head -n 1; }
# collected: the replay's count of collected sections (a note of the JSON report; the text says it only when it changes the outcome).
collected() { "$LINKSCOPE" report --format json --replay-only last | sed -n 's/.*--gc-sections: \([0-9]*\) of .*/\1/p' | head -n 1; }
# same WHAT DRIVER ARGS...: link through the shim; check the outcome and, under
# --gc-sections, the collected count against ld's.
same() {
	local what=$1 rc want n
	shift
	"$SHIM" -- "$@" -o prog >/dev/null 2>&1
	rc=$?
	want=$([ $rc -eq 0 ] && echo succeeds || echo fails)
	check_eq "$what: ld $want, so does the replay" "$want" "$(outcome)"
	case " $* " in *" -Wl,--no-gc-sections "*) return ;; *" -Wl,--gc-sections "*) ;; *) return ;; esac
	n=$("$@" -Wl,--print-gc-sections -o prog.oracle 2>&1 | grep -c "removing unused section")
	check_eq "$what: as many sections collected as ld's --print-gc-sections names ($n)" "$n" "$(collected)"
}

cat >m.c <<'C'
int dead(void);
int keepme(void);
int unused(void) { return dead(); }
int main(void) { return 0; }
C
cat >data.c <<'C'
int missing_code_dep(void);
int table[4] = { 1, 2, 3, 4 };
int helper(void) { return missing_code_dep(); }
C
cat >usedata.c <<'C'
extern int table[4];
int main(void) { return table[2]; }
C
cat >kept.c <<'C'
int keepme(void);
__attribute__((used, section("mysec"))) static int (*entry)(void) = keepme;
extern char __start_mysec[], __stop_mysec[];
int main(void) { return (int)(__stop_mysec - __start_mysec); }
C
cat >retain.c <<'C'
int dead(void);
__attribute__((retain, used)) static int r(void) { return dead(); }
int main(void) { return 0; }
C
cat >lib.c <<'C'
int dead(void);
int api(void) { return 1; }
int internal(void) { return dead(); }
__attribute__((visibility("hidden"))) int hidden_one(void) { return dead(); }
C
cc -c -ffunction-sections -fdata-sections m.c data.c usedata.c kept.c retain.c
cc -c -fPIC -ffunction-sections lib.c
ar rcs libdata.a data.o

same "a dead reference without --gc-sections" cc m.o
check_contains "it is undefined-symbol: dead" "$("$LINKSCOPE" explain --replay-only last)" "undefined-symbol: dead"
same "the same reference in a collected section" cc m.o -Wl,--gc-sections
same "--no-gc-sections after it" cc m.o -Wl,--gc-sections -Wl,--no-gc-sections
same "-u keeps the section" cc m.o -Wl,--gc-sections -Wl,-u,unused
same "-e names another root" cc m.o -Wl,--gc-sections -Wl,-e,unused
same "-E exports it" cc m.o -Wl,--gc-sections -Wl,-E
same "a member pulled for data, its code's reference collected" cc usedata.o -L. -ldata -Wl,--gc-sections
same "... and without --gc-sections" cc usedata.o -L. -ldata
same "__start_/__stop_ keep the section and what it references" cc kept.o -Wl,--gc-sections
same "SHF_GNU_RETAIN keeps a section" cc retain.o -Wl,--gc-sections
same "-shared exports keep sections (-z defs)" cc -shared lib.o -Wl,--gc-sections -Wl,-z,defs
same "-shared: only hidden definitions go" cc -shared lib.o -Wl,--gc-sections
same "a static link" cc -static m.o -Wl,--gc-sections

# ld reports "DSO missing" while loading, before it collects sections: the
# reference counts even from a section that goes.
cat >b.c <<'C'
int bfun(void) { return 1; }
C
cat >a.c <<'C'
int bfun(void);
int afun(void) { return bfun(); }
C
cat >m2.c <<'C'
int bfun(void);
int afun(void);
int unused(void) { return bfun() + afun(); }
int main(void) { return 0; }
C
cc -shared -fPIC b.c -o libb.so -Wl,-soname,libb.so
cc -shared -fPIC a.c -o liba.so -Wl,-soname,liba.so -Wl,--no-as-needed -L. -lb
cc -c -ffunction-sections m2.c
"$SHIM" -- cc m2.o -L. -la -Wl,-rpath-link,. -Wl,--gc-sections -o prog >/dev/null 2>&1
check_eq "DSO missing from a collected section: ld fails" 1 $?
check_eq "... so does the replay" fails "$(outcome)"
check_contains "it is dso-missing: bfun" "$("$LINKSCOPE" explain --replay-only last)" "dso-missing: bfun"

# C++ through g++: COMDAT groups, .eh_frame and its LSDAs, libstdc++.
cat >c1.cpp <<'CPP'
#include <stdexcept>
#include <string>
#include <vector>
template <class T> T twice(T x) { return x + x; }
int unusedfn(int x) { std::vector<int> v(x); return (int)v.size() + twice(x); }
extern int missing_thing(int);
int deadref(int x) { return missing_thing(x); }
std::string s = "hi";
int main(int argc, char **) { try { if (argc > 5) throw std::runtime_error("x"); } catch (std::exception &) { return 2; } return twice(argc) + (int)s.size(); }
CPP
cat >c2.cpp <<'CPP'
template <class T> T twice(T x) { return x + x; }
int other(int x) { return twice(x) * 3; }
CPP
g++ -c -ffunction-sections -fdata-sections c1.cpp c2.cpp
same "C++ with --gc-sections" g++ c1.o c2.o -Wl,--gc-sections
same "C++ with -E" g++ c1.o c2.o -Wl,--gc-sections -Wl,-E
same "C++, static" g++ -static c1.o c2.o -Wl,--gc-sections
finish
