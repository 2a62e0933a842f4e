// A test binary of the crate that references nothing of libc itself: with
// CARGO_GROUP_VARIANT=atexit its link fails under GNU ld, as src/main.rs's.
extern "C" {
    fn lk_answer() -> i32;
}

#[test]
fn answer() {
    assert_eq!(unsafe { lk_answer() }, 42);
}
