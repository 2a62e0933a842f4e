fn main() {
    std::process::exit(if forgets_sys::answer(1) > 0 { 0 } else { 1 });
}
