fn main() {
    println!("{}", native::pid() > 0);
}
