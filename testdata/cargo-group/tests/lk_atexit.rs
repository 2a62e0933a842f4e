// A test binary of the same crate whose own object references atexit, before
// rustc's -lc: libc_nonshared.a's atexit member is then pulled there, and the
// appended archive's reference binds to it, so this one links under GNU ld
// while tests/lk_plain.rs does not ("one test binary linked, another did not").
extern "C" {
    fn lk_answer() -> i32;
    fn atexit(f: extern "C" fn()) -> i32;
}

extern "C" fn bye() {}

#[test]
fn answer() {
    assert_eq!(unsafe { atexit(bye) }, 0);
    assert_eq!(unsafe { lk_answer() }, 42);
}
