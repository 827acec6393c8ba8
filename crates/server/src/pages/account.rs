//! Log in, register, and the account page (a new password). The forms post JSON to `/api/login` and `/api/register`, which
//! set the session cookie; the page then goes where the visitor was headed.

use axum::extract::State;
use axum::response::{IntoResponse, Redirect};
use serde::Deserialize;

use super::layout::{esc, frame, PageResult};
use crate::auth::Viewer;
use crate::error::Params;
use crate::App;

#[derive(Deserialize, Default)]
pub struct Next {
    #[serde(default)]
    next: Option<String>,
}

/// Only paths on this site, so that a link cannot send a fresh login elsewhere.
fn safe_next(next: Option<String>) -> String {
    match next {
        Some(n) if n.starts_with('/') && !n.starts_with("//") && !n.contains('\\') => n,
        _ => "/".to_string(),
    }
}

fn form(title: &str, endpoint: &str, next: &str, other: &str) -> String {
    let autocomplete = if endpoint.ends_with("register") {
        "new-password"
    } else {
        "current-password"
    };
    format!(
        r#"<section class="card narrow"><h1>{title}</h1>
<form class="api-form" data-api="{endpoint}" data-method="POST" data-redirect="{next}">
<label for="name">Account name</label><input id="name" name="name" required minlength="3" maxlength="32" autocomplete="username" autocapitalize="none" spellcheck="false">
<label for="password">Password</label><input id="password" name="password" type="password" required minlength="8" autocomplete="{autocomplete}">
<button type="submit">{title}</button>
<p class="form-message" role="status" aria-live="polite"></p>
</form>{other}<noscript><p class="note">These forms need JavaScript.</p></noscript></section>"#,
        next = esc(next)
    )
}

pub async fn login_page(State(_app): State<App>, Viewer(viewer): Viewer, Params(n): Params<Next>) -> PageResult {
    let next = safe_next(n.next);
    let other = format!(
        r#"<p>New here? <a href="/register?next={}">Register</a>.</p>"#,
        esc(&next)
    );
    Ok(frame(
        "Log in",
        viewer.as_ref(),
        &form("Log in", "/api/login", &next, &other),
        &[],
    )
    .into_response())
}

pub async fn register_page(State(_app): State<App>, Viewer(viewer): Viewer, Params(n): Params<Next>) -> PageResult {
    let next = safe_next(n.next);
    let other = format!(
        r#"<p>An account name has 3 to 32 letters, digits, <code>-</code>, <code>_</code> or <code>.</code>; a password 8 characters or more. Have an account? <a href="/login?next={}">Log in</a>.</p>"#,
        esc(&next)
    );
    Ok(frame(
        "Register",
        viewer.as_ref(),
        &form("Register", "/api/register", &next, &other),
        &[],
    )
    .into_response())
}

/// The viewer's account: a new password (the old one is asked for too).
pub async fn account_page(State(_app): State<App>, Viewer(viewer): Viewer) -> PageResult {
    let Some(account) = viewer.as_ref() else {
        return Ok(Redirect::to("/login?next=/account").into_response());
    };
    let body = format!(
        r#"<section class="card narrow"><h1>Account {}</h1>
<p><a href="/players/{0}">Your record of games</a>, as others see it (your anonymous games show only to you).</p>
<h2 id="password-h">Change the password</h2>
<form class="api-form" aria-labelledby="password-h" data-api="/api/me/password" data-method="POST" data-done="Password changed; your other sessions have ended.">
<input type="text" value="{0}" autocomplete="username" hidden aria-hidden="true" tabindex="-1" aria-label="Account name">
<label for="old-password">Current password</label><input id="old-password" name="old" type="password" required autocomplete="current-password">
<label for="new-password">New password</label><input id="new-password" name="new" type="password" required minlength="8" autocomplete="new-password">
<button type="submit" id="change-password">Change the password</button>
<p class="form-message" role="status" aria-live="polite"></p>
</form><noscript><p class="note">This form needs JavaScript.</p></noscript></section>"#,
        esc(&account.name)
    );
    Ok(frame("Account", viewer.as_ref(), &body, &[]).into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn next_stays_on_this_site() {
        assert_eq!(safe_next(Some("/games/4".into())), "/games/4");
        assert_eq!(safe_next(Some("//evil.example/".into())), "/");
        assert_eq!(safe_next(Some("https://evil.example/".into())), "/");
        assert_eq!(safe_next(None), "/");
    }
}
