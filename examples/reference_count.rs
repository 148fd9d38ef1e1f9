//! The reference token counter for benchmarks: tiktoken-rs's `encode_ordinary` on a file,
//! decoded lossily, as ctxoff's counts are defined. Usage: reference_count ENCODING FILE
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(encoding), Some(file)) = (args.get(1), args.get(2)) else {
        eprintln!("usage: reference_count o200k_base|cl100k_base FILE");
        std::process::exit(2);
    };
    let bpe = match encoding.as_str() {
        "cl100k_base" => tiktoken_rs::cl100k_base_singleton(),
        _ => tiktoken_rs::o200k_base_singleton(),
    };
    let bytes = std::fs::read(file).unwrap_or_else(|e| {
        eprintln!("reference_count: {file}: {e}");
        std::process::exit(1);
    });
    println!(
        "{}",
        bpe.encode_ordinary(&String::from_utf8_lossy(&bytes)).len()
    );
}
