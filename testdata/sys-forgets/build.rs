// A -sys crate whose build script forgets to tell cargo what to link
// (issue #10's test). No crates: the test machine has no registry.
//   SYS_VARIANT=zlib    the crate calls zlib and prints nothing: -lz is missing
//   SYS_VARIANT=native  it builds libsysnative.a in OUT_DIR and prints
//                       neither rustc-link-search nor rustc-link-lib
//   SYS_LIBDIR=DIR      (native) libsysnative.a goes to DIR instead: a dir
//                       the linker searches anyway (LIBRARY_PATH), not rustc
//   SYS_EXTRA="a;b"     lines printed verbatim: the test applies linkscope's
//                       suggested cargo: instructions through it
use std::env;
use std::path::Path;
use std::process::Command;

fn main() {
    let out = env::var("OUT_DIR").unwrap();
    let out = Path::new(&out);
    let variant = env::var("SYS_VARIANT").unwrap_or_default();
    if variant == "native" {
        let libdir = env::var("SYS_LIBDIR").unwrap_or_default();
        let libdir = if libdir.is_empty() { out } else { Path::new(&libdir) };
        let obj = out.join("native.o");
        let ok = Command::new("cc").args(["-c", "-fPIC", "csrc/native.c", "-o"]).arg(&obj).status().unwrap();
        assert!(ok.success());
        let ok = Command::new("ar").arg("rcs").arg(libdir.join("libsysnative.a")).arg(&obj).status().unwrap();
        assert!(ok.success());
        println!("cargo:rustc-cfg=native");
    }
    for line in env::var("SYS_EXTRA").unwrap_or_default().split(';').filter(|l| !l.is_empty()) {
        println!("{line}");
    }
    println!("cargo:rerun-if-changed=csrc");
    println!("cargo:rerun-if-env-changed=SYS_VARIANT");
    println!("cargo:rerun-if-env-changed=SYS_EXTRA");
    println!("cargo:rerun-if-env-changed=SYS_LIBDIR");
}
