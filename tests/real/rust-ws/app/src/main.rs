use describe::Describe;

#[derive(Describe)]
#[allow(dead_code)]
struct Point {
    x: i32,
    y: i32,
}

fn main() {
    let (name, fields) = Point::describe();
    println!("{} {} {:x}", name, fields, native::checksum(b"linkscope"));
}
