//! The map pictures the README links: every variant at its start and in a phase with a
//! dislodgement, drawn by `chancery render` into docs/screenshots/ at 1400 pixels wide
//! (the map alone, as a player sees it across a screen). Each must be a real PNG of
//! that width and a plausible size, so a broken renderer fails here and not in the
//! README.

use std::process::Command;

const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");

fn render(args: &[&str], out: &str) {
    let path = format!("{ROOT}/docs/screenshots/{out}");
    let status = Command::new(env!("CARGO_BIN_EXE_chancery"))
        .arg("render")
        .args(args)
        .args(["--no-legend", "--scale", "1", "-o", &path])
        .current_dir(ROOT)
        .output()
        .unwrap();
    assert!(
        status.status.success(),
        "{out}: {}",
        String::from_utf8_lossy(&status.stderr)
    );
    let bytes = std::fs::read(&path).unwrap();
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "{out}");
    // The IHDR chunk: width as a big-endian u32 at byte 16.
    let width = u32::from_be_bytes([bytes[16], bytes[17], bytes[18], bytes[19]]);
    assert_eq!(width, 1400, "{out}");
    assert!(
        bytes.len() > 20_000,
        "{out} is suspiciously small ({} bytes)",
        bytes.len()
    );
}

#[test]
fn every_variant_is_drawn_at_its_start_and_with_a_dislodgement() {
    for variant in ["standard", "1936", "1648", "original-1958"] {
        render(&[variant], &format!("{variant}-start.png"));
    }
    // A phase with a dislodgement in each variant, with its orders and results drawn.
    let phases = [
        ("standard", "tests/datc/6d-supports.txt", "6.D.2"),
        (
            "1936",
            "tests/dp/1936-rules.txt",
            "1936 rule 1: a dislodged minor is removed and the Fall gives the centre",
        ),
        ("1648", "tests/dp/1648-rules.txt", "1648 Swabia example"),
        (
            "original-1958",
            "tests/1958/stacks.txt",
            "1958.stack.defends-as-one-unit",
        ),
    ];
    for (variant, file, case) in phases {
        render(&[variant, "--case", file, case], &format!("{variant}-dislodgement.png"));
    }
}
