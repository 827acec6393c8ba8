//! `chancery render` as a script uses it: files written, formats, and clear errors.

use std::path::PathBuf;
use std::process::Command;

fn chancery(args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_chancery"))
        .args(args)
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("chancery-render-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

#[test]
fn the_starting_map_is_written_as_svg_and_as_png() {
    let svg = scratch("start.svg");
    let (code, err) = chancery(&["render", "standard", "-o", svg.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.starts_with("<svg"));
    assert_eq!(text.matches(r#"class="space "#).count(), 75);

    let png = scratch("start.png");
    let (code, err) = chancery(&["render", "standard", "-o", png.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let bytes = std::fs::read(&png).unwrap();
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
}

#[test]
fn a_case_is_drawn_with_its_orders() {
    // DATC 6.C.3: a circular movement of three units with a fourth bouncing.
    let svg = scratch("case.svg");
    let (code, err) = chancery(&[
        "render",
        "standard",
        "--case",
        "tests/datc/6c-circular.txt",
        "6.C.3",
        "-o",
        svg.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&svg).unwrap();
    assert_eq!(text.matches(r#"class="order move "#).count(), 4);
}

#[test]
fn bad_requests_fail_with_a_message() {
    let out = scratch("never.svg");
    let out = out.to_str().unwrap();
    let (code, err) = chancery(&[
        "render",
        "standard",
        "--case",
        "tests/datc/6c-circular.txt",
        "9.Z.9",
        "-o",
        out,
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("no case `9.Z.9`"), "{err}");
    let (code, err) = chancery(&["render", "standard", "--after", "-o", out]);
    assert_eq!(code, 2);
    assert!(err.contains("--after needs orders"), "{err}");
    let (code, err) = chancery(&["render", "nowhere", "-o", out]);
    assert_eq!(code, 2);
    assert!(err.contains("nowhere"), "{err}");
}
