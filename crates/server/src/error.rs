//! Errors as JSON: `{"error": "...", ...details}` with the status code that fits.
//! Here too the extractors every handler reads its request with, [`Body`],
//! [`OptionalBody`], [`Params`] and [`Path`]: each checks every string of the request
//! with [`crate::input`] (422 naming the field) and refuses as JSON.

use axum::extract::{FromRequest, FromRequestParts, RawPathParams, Request};
use axum::http::header::CONTENT_TYPE;
use axum::http::request::Parts;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::de::DeserializeOwned;
use serde_json::{json, Value};

use crate::input::{check_json, check_text, is_json_type, Refusal};

/// The body of every error answer (some add details beside `error`).
#[derive(serde::Serialize, utoipa::ToSchema)]
pub struct ErrorBody {
    /// What went wrong, in words for the user.
    pub error: String,
}

#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub message: String,
    pub details: Option<Value>,
    /// Seconds a refused client should wait (`Retry-After`).
    pub retry_after: Option<u64>,
}

pub type ApiResult<T> = Result<T, ApiError>;

impl ApiError {
    pub fn new(status: StatusCode, message: impl Into<String>) -> Self {
        ApiError {
            status,
            message: message.into(),
            details: None,
            retry_after: None,
        }
    }
    pub fn bad_request(m: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, m)
    }
    pub fn unauthorized() -> Self {
        Self::new(
            StatusCode::UNAUTHORIZED,
            "log in first (session cookie or Bearer token)",
        )
    }
    pub fn forbidden(m: impl Into<String>) -> Self {
        Self::new(StatusCode::FORBIDDEN, m)
    }
    pub fn not_found(m: impl Into<String>) -> Self {
        Self::new(StatusCode::NOT_FOUND, m)
    }
    pub fn conflict(m: impl Into<String>) -> Self {
        Self::new(StatusCode::CONFLICT, m)
    }
    pub fn unprocessable(m: impl Into<String>) -> Self {
        Self::new(StatusCode::UNPROCESSABLE_ENTITY, m)
    }
    pub fn unavailable(m: impl Into<String>) -> Self {
        Self::new(StatusCode::SERVICE_UNAVAILABLE, m)
    }
    pub fn with(mut self, details: Value) -> Self {
        self.details = Some(details);
        self
    }
    pub fn retry_after(mut self, seconds: u64) -> Self {
        self.retry_after = Some(seconds);
        self
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut body = json!({ "error": self.message });
        if let Some(Value::Object(map)) = self.details {
            for (k, v) in map {
                body[k] = v;
            }
        }
        let mut response = (self.status, axum::Json(body)).into_response();
        if let Some(seconds) = self.retry_after {
            response
                .headers_mut()
                .insert(axum::http::header::RETRY_AFTER, seconds.into());
        }
        response
    }
}

impl From<sqlx::Error> for ApiError {
    fn from(e: sqlx::Error) -> Self {
        // The detail goes to the log, not to the client.
        eprintln!("chancery-server: database error: {e}");
        let busy = matches!(&e, sqlx::Error::PoolTimedOut)
            || e.as_database_error()
                .is_some_and(|d| d.message().contains("locked") || d.message().contains("busy"));
        if busy {
            ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "the database is busy; try again")
        } else {
            ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "internal database error")
        }
    }
}

impl From<Refusal> for ApiError {
    fn from(r: Refusal) -> Self {
        ApiError::unprocessable(format!("`{}`: {}", r.field, r.why)).with(json!({ "field": r.field }))
    }
}

/// Reads a checked JSON value as `T`; a mismatch is 422, as axum's `Json` answers it.
fn typed<T: DeserializeOwned>(value: Value) -> Result<T, ApiError> {
    check_json(&value)?;
    serde_json::from_value(value).map_err(|e| ApiError::unprocessable(format!("request body: {e}")))
}

/// A JSON request body, every string checked. Bad JSON, a wrong content type or too
/// large a body are refused as JSON too.
pub struct Body<T>(pub T);

impl<S, T> FromRequest<S> for Body<T>
where
    T: DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        match axum::Json::<Value>::from_request(req, state).await {
            Ok(axum::Json(v)) => Ok(Body(typed(v)?)),
            Err(rejection) => Err(ApiError::new(rejection.status(), rejection.body_text())),
        }
    }
}

/// An optional JSON body: none (or only blanks) means the defaults; otherwise it must be
/// JSON, with the JSON content type, and is checked as [`Body`] is.
pub struct OptionalBody<T>(pub T);

impl<S, T> FromRequest<S> for OptionalBody<T>
where
    T: DeserializeOwned + Default,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let json = req
            .headers()
            .get(CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(is_json_type);
        let bytes = axum::body::Bytes::from_request(req, state)
            .await
            .map_err(|r| ApiError::new(r.status(), r.body_text()))?;
        if bytes.iter().all(|b| b.is_ascii_whitespace()) {
            return Ok(OptionalBody(T::default()));
        }
        if !json {
            return Err(ApiError::new(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "a request body must be JSON, sent as `Content-Type: application/json`",
            ));
        }
        let value: Value =
            serde_json::from_slice(&bytes).map_err(|e| ApiError::bad_request(format!("request body: {e}")))?;
        Ok(OptionalBody(typed(value)?))
    }
}

/// The query string, every name and value checked, read as `T`.
pub struct Params<T>(pub T);

impl<S, T> FromRequestParts<S> for Params<T>
where
    T: DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let reject = |r: axum::extract::rejection::QueryRejection| ApiError::new(r.status(), r.body_text());
        let axum::extract::Query(pairs) =
            axum::extract::Query::<Vec<(String, String)>>::from_request_parts(parts, state)
                .await
                .map_err(reject)?;
        for (name, value) in &pairs {
            check_text(&format!("query `{name}` name"), name, false)?;
            check_text(name, value, false)?;
        }
        match axum::extract::Query::<T>::from_request_parts(parts, state).await {
            Ok(axum::extract::Query(v)) => Ok(Params(v)),
            Err(rejection) => Err(reject(rejection)),
        }
    }
}

/// The path's parameters, each checked, read as `T` (a game id that is not a number is
/// refused as JSON too).
pub struct Path<T>(pub T);

impl<S, T> FromRequestParts<S> for Path<T>
where
    T: DeserializeOwned + Send,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let raw = RawPathParams::from_request_parts(parts, state)
            .await
            .map_err(|r| ApiError::new(r.status(), r.body_text()))?;
        for (name, value) in &raw {
            check_text(name, value, false)?;
        }
        match axum::extract::Path::<T>::from_request_parts(parts, state).await {
            Ok(axum::extract::Path(v)) => Ok(Path(v)),
            Err(rejection) => Err(ApiError::new(rejection.status(), rejection.body_text())),
        }
    }
}
