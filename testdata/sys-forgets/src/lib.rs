//! The -sys crate: its functions call a native library.
use std::os::raw::{c_char, c_int, c_ulong};

extern "C" {
    fn zlibVersion() -> *const c_char;
    fn compressBound(len: c_ulong) -> c_ulong;
    #[cfg(native)]
    fn sysnative_answer(x: c_int) -> c_int;
}

#[inline(never)]
pub fn answer(x: i32) -> i32 {
    #[cfg(native)]
    return unsafe { sysnative_answer(x as c_int) };
    #[cfg(not(native))]
    unsafe {
        let v = zlibVersion();
        (compressBound(x as c_ulong) as i32) + if v.is_null() { 0 } else { 1 }
    }
}
