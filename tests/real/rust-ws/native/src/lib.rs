//! A Rust face for a C function built by build.rs, and libc's getpid.
extern "C" {
    fn native_checksum(p: *const u8, n: usize) -> std::os::raw::c_ulong;
}

pub fn checksum(data: &[u8]) -> u64 {
    unsafe { native_checksum(data.as_ptr(), data.len()) as u64 }
}

pub fn pid() -> i32 {
    unsafe { libc::getpid() }
}
