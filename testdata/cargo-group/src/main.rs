extern "C" {
    fn lk_answer() -> i32;
}

fn main() {
    println!("{}", unsafe { lk_answer() });
}
