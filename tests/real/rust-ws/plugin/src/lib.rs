//! A C ABI shared library over the native crate.
#[no_mangle]
pub extern "C" fn plugin_checksum(p: *const u8, n: usize) -> u64 {
    let data = unsafe { std::slice::from_raw_parts(p, n) };
    native::checksum(data)
}
