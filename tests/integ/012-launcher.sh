# Launcher mode (CMAKE_<LANG>_LINKER_LAUNCHER): linkscope-cc -- DRIVER ARGS.
# The driver's argv is exactly what follows "--"; positions index it.
. "$(dirname "$0")/lib.sh"

write_main
run_capture direct gcc main.o -o direct.bin
run_capture shim "$SHIM" -- gcc main.o -o shim.bin
same_run "launcher" direct shim
check "same output" cmp -s direct.bin shim.bin
r=$(last_record)
check "record validates" validate "$r"
check_eq "mode launcher" "launcher" "$(rec "$r" 'r["mode"]')"
check_eq "argv[0] is the word after --" "['gcc', 'main.o', '-o', 'shim.bin']" "$(rec "$r" 'r["argv"]')"
check_eq "driver resolved on PATH" "$(command -v gcc)" "$(rec "$r" 'r["driver"]["resolved"]')"

# A first word that names a compiler driver is the launcher's (ccache's
# convention), with or without a path; an input or an option is not.
run_capture bare "$SHIM" "$(command -v gcc)" main.o -o bare.bin
same_run "bare launcher" direct bare
check_eq "bare path: mode launcher" "launcher" "$(rec "$(last_record)" 'r["mode"]')"
run_capture barename "$SHIM" gcc main.o -o barename.bin
check_eq "bare name: mode launcher" "launcher" "$(rec "$(last_record)" 'r["mode"]')"
run_capture linker "$SHIM" main.o -o linker.bin
check_eq "an input first: mode linker" "linker" "$(rec "$(last_record)" 'r["mode"]')"

# A cross driver's name gives the target.
mkdir xbin
ln -s "$(command -v gcc)" xbin/aarch64-linux-gnu-gcc-12
run_capture shim "$SHIM" -- "$T/xbin/aarch64-linux-gnu-gcc-12" main.o -o cross.bin
check_eq "target from the driver's name" "aarch64-linux-gnu driver name" \
	"$(rec "$(last_record)" 'r["target"]["triple"] + " " + r["target"]["source"]')"

# CMake with the shim as the linker launcher.
if command -v cmake >/dev/null; then
	mkdir cm && cd cm || exit 1
	cp ../main.c .
	printf 'cmake_minimum_required(VERSION 3.21)\nproject(p C)\nadd_executable(p main.c)\n' >CMakeLists.txt
	before=$(record_count)
	run_capture cmake cmake -S . -B b -DCMAKE_C_LINKER_LAUNCHER="$SHIM;--"
	run_capture cmbuild cmake --build b
	check_eq "cmake build with the launcher succeeds" 0 "$(cat "$T/cmbuild.rc")"
	check "the program runs" sh -c "b/p >/dev/null"
	check_eq "the link of p was recorded" "p" "$(rec "$(last_record)" 'r["line"]["output"]')"
	check "more records than before (try-compile links count too)" test "$(record_count)" -gt "$before"

	# CMake's launcher as documented by CMake: no "--", the compiler's path
	# comes right after the launcher (as with ccache). The link must not
	# change: the word is the driver, not an input of "cc".
	mkdir ../cm2 && cd ../cm2 || exit 1
	cp ../main.c .
	printf 'cmake_minimum_required(VERSION 3.21)\nproject(p C)\nadd_executable(p main.c)\n' >CMakeLists.txt
	run_capture cmake2 cmake -S . -B b -DCMAKE_C_LINKER_LAUNCHER="$SHIM"
	run_capture cmbuild2 cmake --build b
	check_eq "cmake build with the bare launcher succeeds" 0 "$(cat "$T/cmbuild2.rc")"
	check "the program runs (bare launcher)" sh -c "b/p >/dev/null"
	r=$(last_record)
	check_eq "bare launcher: mode launcher" "launcher" "$(rec "$r" 'r["mode"]')"
	check_eq "bare launcher: argv[0] is CMake's compiler" "$(cd b && sed -n 's/^CMAKE_C_COMPILER:[A-Z]*=//p' CMakeCache.txt)" \
		"$(rec "$r" 'r["argv"][0]')"
fi
finish
