// Builds two small C archives with cc and ar (no crates: the test machine
// has no registry), then appends them to the link line inside a
// --start-group ... --end-group block with cargo:rustc-link-arg, the way the
// IREE build script in ../shared/background does. rustc places these after
// its own -lc.
use std::env;
use std::path::Path;
use std::process::Command;

fn run(cmd: &mut Command) {
    let status = cmd.status().expect("cannot start a build tool");
    assert!(status.success(), "{:?} failed", cmd);
}

fn archive(out: &Path, name: &str, src: &str) {
    let obj = out.join(format!("{name}.o"));
    let cc = env::var("LINKSCOPE_TEST_CC").unwrap_or_else(|_| "cc".into());
    run(Command::new(cc).args(["-c", "-fPIC", "-O1", src, "-o"]).arg(&obj));
    run(Command::new("ar").arg("rcs").arg(out.join(format!("lib{name}.a"))).arg(&obj));
}

// The appended block: -L and a group, for every target (`which` = "") or
// only for the bins or the tests ("-bins", "-tests").
fn group(out: &Path, which: &str, answer: &str) {
    println!("cargo:rustc-link-arg{which}=-L{}", out.display());
    println!("cargo:rustc-link-arg{which}=-Wl,--start-group");
    println!("cargo:rustc-link-arg{which}=-l:libpart.a");
    println!("cargo:rustc-link-arg{which}=-l:{answer}");
    println!("cargo:rustc-link-arg{which}=-Wl,--end-group");
}

fn main() {
    let out = env::var("OUT_DIR").unwrap();
    let out = Path::new(&out);
    // CARGO_GROUP_VARIANT=atexit builds the member that calls atexit (see csrc/answer-atexit.c).
    // CARGO_GROUP_VARIANT=tls builds one that references __tls_get_addr (csrc/answer-tls.c).
    // CARGO_GROUP_VARIANT=atexit-tests: the bin gets csrc/answer.c (it links), the
    // integration tests the atexit member (tests/lk_plain.rs fails, tests/lk_atexit.rs links).
    let variant = env::var("CARGO_GROUP_VARIANT").unwrap_or_default();
    let answer = match variant.as_str() {
        "atexit" => "csrc/answer-atexit.c",
        "tls" => "csrc/answer-tls.c",
        _ => "csrc/answer.c",
    };
    archive(out, "answer", answer);
    if variant == "tls" {
        archive(out, "part", "csrc/part-tls.c");
    } else {
        archive(out, "part", "csrc/part.c");
    }
    println!("cargo:rerun-if-changed=csrc");
    println!("cargo:rerun-if-env-changed=CARGO_GROUP_VARIANT");
    if variant == "atexit-tests" {
        archive(out, "answer_atexit", "csrc/answer-atexit.c");
        group(out, "-bins", "libanswer.a");
        group(out, "-tests", "libanswer_atexit.a");
    } else {
        group(out, "", "libanswer.a");
    }
}
