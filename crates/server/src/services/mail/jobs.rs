//! The mail that is not caused by a request but by the clock: deadline reminders
//! ([`super::reminders`]), press in batches ([`super::press`]) and the daily
//! digests ([`super::digest`]). Each server runs this beside its sender; every job claims
//! its work in the database, so that any number of servers may run it.

use std::time::Duration;

use crate::App;

pub async fn run(app: App, tick_ms: u64) {
    if !app.mailer.sends() {
        return;
    }
    let tick = Duration::from_millis(tick_ms.max(10));
    loop {
        if let Err(e) = super::reminders::send_due(&app).await {
            tracing::error!("reminders: {}", e.message);
        }
        if let Err(e) = super::press::send_due(&app).await {
            tracing::error!("press mail: {}", e.message);
        }
        if let Err(e) = super::digest::send_due(&app).await {
            tracing::error!("digests: {}", e.message);
        }
        tokio::time::sleep(tick).await;
    }
}
