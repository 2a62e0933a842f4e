// Compiles c/checksum.c into a static library that rustc links.
fn main() {
    println!("cargo:rerun-if-changed=c/checksum.c");
    cc::Build::new().file("c/checksum.c").compile("checksum");
}
