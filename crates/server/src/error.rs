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
use crate::model::PhaseSeq;

/// What kind of refusal an error is: stable, for clients to tell one refusal from
/// another (the message is for people and may change). Each code has one status, given
/// here and nowhere else.
#[derive(serde::Serialize, utoipa::ToSchema, Clone, Copy, Debug, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// 400: the request cannot be read (broken JSON, a bad query string).
    BadRequest,
    /// 401: no session, or one that has ended.
    NotLoggedIn,
    /// 403: not allowed to the account (a generic refusal; the codes below are sharper).
    Forbidden,
    /// 403: the power is another player's.
    NotYourPower,
    /// 403: only the game's GM may do that.
    GmOnly,
    /// 403: only a club moderator may do that.
    ModeratorOnly,
    /// 403: the account is suspended (`details`: `suspended`, `until`, `reason`).
    Suspended,
    /// 403: a form posted from another site, or without its token.
    CrossSite,
    /// 404: no such game, account, post or page.
    NotFound,
    /// 405: the endpoint does not take that method.
    MethodNotAllowed,
    /// 409: the request does not fit the state it met (a generic conflict).
    Conflict,
    /// 409: sent for a phase the game has left, or after its deadline (`details`: the
    /// game's current `phase`, `seq`).
    PhaseClosed,
    /// 409: the game is not running (forming, paused or over).
    NotRunning,
    /// 409: the game is over.
    GameOver,
    /// 413: the body, a file or a map is larger than the server takes.
    TooLarge,
    /// 415: a body that is not JSON.
    UnsupportedMediaType,
    /// 422: a value is not valid (`details`: the `field` when one is to blame).
    Invalid,
    /// 422: orders were refused (`details`: `refused`, each order's text and why).
    InvalidOrder,
    /// 422: a bid cannot be made (`details`: the bid's `order`).
    InvalidBid,
    /// 422: a power's bids together spend more Diplomacy Points than its budget this
    /// turn (rule 3; `GET /api/games/{id}/budget` gives the budget).
    OverBudget,
    /// 429: too many requests, attempts or posts (`Retry-After`; `details`:
    /// `retry_after_seconds` or `retry_after` and `per`).
    RateLimited,
    /// 500: the server failed (the log says why).
    Internal,
    /// 500: the game's stored position cannot be read.
    DamagedGame,
    /// 503: the database is busy; try again.
    Busy,
    /// 503: not available now (a map being drawn) or on this server (no mail).
    Unavailable,
}

impl ErrorCode {
    /// Every code, for the OpenAPI document and its test.
    pub const ALL: [ErrorCode; 25] = [
        ErrorCode::BadRequest,
        ErrorCode::NotLoggedIn,
        ErrorCode::Forbidden,
        ErrorCode::NotYourPower,
        ErrorCode::GmOnly,
        ErrorCode::ModeratorOnly,
        ErrorCode::Suspended,
        ErrorCode::CrossSite,
        ErrorCode::NotFound,
        ErrorCode::MethodNotAllowed,
        ErrorCode::Conflict,
        ErrorCode::PhaseClosed,
        ErrorCode::NotRunning,
        ErrorCode::GameOver,
        ErrorCode::TooLarge,
        ErrorCode::UnsupportedMediaType,
        ErrorCode::Invalid,
        ErrorCode::InvalidOrder,
        ErrorCode::InvalidBid,
        ErrorCode::OverBudget,
        ErrorCode::RateLimited,
        ErrorCode::Internal,
        ErrorCode::DamagedGame,
        ErrorCode::Busy,
        ErrorCode::Unavailable,
    ];

    /// The one HTTP status of each code.
    pub fn status(self) -> StatusCode {
        use ErrorCode::*;
        match self {
            BadRequest => StatusCode::BAD_REQUEST,
            NotLoggedIn => StatusCode::UNAUTHORIZED,
            Forbidden | NotYourPower | GmOnly | ModeratorOnly | Suspended | CrossSite => StatusCode::FORBIDDEN,
            NotFound => StatusCode::NOT_FOUND,
            MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
            Conflict | PhaseClosed | NotRunning | GameOver => StatusCode::CONFLICT,
            TooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            UnsupportedMediaType => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            Invalid | InvalidOrder | InvalidBid | OverBudget => StatusCode::UNPROCESSABLE_ENTITY,
            RateLimited => StatusCode::TOO_MANY_REQUESTS,
            Internal | DamagedGame => StatusCode::INTERNAL_SERVER_ERROR,
            Busy | Unavailable => StatusCode::SERVICE_UNAVAILABLE,
        }
    }

    /// The code as the body gives it.
    pub fn as_str(self) -> String {
        serde_json::to_value(self)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_default()
    }

    /// The generic code of a status that something outside the services chose (axum's
    /// rejections of a request).
    fn of_status(status: StatusCode) -> ErrorCode {
        match status.as_u16() {
            401 => ErrorCode::NotLoggedIn,
            403 => ErrorCode::Forbidden,
            404 => ErrorCode::NotFound,
            405 => ErrorCode::MethodNotAllowed,
            409 => ErrorCode::Conflict,
            413 => ErrorCode::TooLarge,
            415 => ErrorCode::UnsupportedMediaType,
            422 => ErrorCode::Invalid,
            429 => ErrorCode::RateLimited,
            503 => ErrorCode::Unavailable,
            400..=499 => ErrorCode::BadRequest,
            _ => ErrorCode::Internal,
        }
    }
}

/// The body of every error answer: the message, its code, and for some codes details
/// beside them (each described here; absent where it does not apply).
#[derive(serde::Serialize, utoipa::ToSchema)]
pub struct ErrorBody {
    /// What went wrong, in words for the user.
    pub error: String,
    pub code: ErrorCode,
    /// `invalid`: the request's field to blame.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
    /// `invalid_order`: each refused order and why.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub refused: Option<Vec<RefusedOrder>>,
    /// `invalid_bid`: the bid's order as sent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub order: Option<String>,
    /// `phase_closed`: the phase the game is at (`S1901M`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub phase: Option<String>,
    /// `phase_closed`: the game's current phase number, to send with the next request.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<i64>)]
    pub seq: Option<PhaseSeq>,
    /// `suspended`: always true.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub suspended: Option<bool>,
    /// `suspended`: when the suspension ends (ISO 8601 UTC); null: until lifted.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub until: Option<String>,
    /// `suspended`: the moderator's reason.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// `rate_limited` (logins): seconds to wait.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub retry_after_seconds: Option<u64>,
    /// `rate_limited` (posts): seconds to wait.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub retry_after: Option<u64>,
    /// `rate_limited` (posts): what the limit counts (`post`, `topic`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub per: Option<String>,
}

/// An order refused, in an `invalid_order` answer.
#[derive(serde::Serialize, utoipa::ToSchema, Debug)]
pub struct RefusedOrder {
    /// The order as sent.
    pub order: String,
    /// Why it was refused, in words for the player.
    pub error: String,
}

#[derive(Debug)]
pub struct ApiError {
    pub code: ErrorCode,
    pub message: String,
    pub details: Option<Value>,
    /// Seconds a refused client should wait (`Retry-After`).
    pub retry_after: Option<u64>,
}

pub type ApiResult<T> = Result<T, ApiError>;

impl ApiError {
    /// A refusal of kind `code`.
    pub fn coded(code: ErrorCode, message: impl Into<String>) -> Self {
        ApiError {
            code,
            message: message.into(),
            details: None,
            retry_after: None,
        }
    }
    /// An error whose status something outside the services chose (axum's rejections).
    pub fn new(status: StatusCode, message: impl Into<String>) -> Self {
        Self::coded(ErrorCode::of_status(status), message)
    }
    /// The HTTP status, from the code.
    pub fn status(&self) -> StatusCode {
        self.code.status()
    }
    pub fn bad_request(m: impl Into<String>) -> Self {
        Self::coded(ErrorCode::BadRequest, m)
    }
    pub fn unauthorized() -> Self {
        Self::coded(ErrorCode::NotLoggedIn, "log in first (session cookie or Bearer token)")
    }
    pub fn forbidden(m: impl Into<String>) -> Self {
        Self::coded(ErrorCode::Forbidden, m)
    }
    pub fn not_found(m: impl Into<String>) -> Self {
        Self::coded(ErrorCode::NotFound, m)
    }
    pub fn conflict(m: impl Into<String>) -> Self {
        Self::coded(ErrorCode::Conflict, m)
    }
    pub fn unprocessable(m: impl Into<String>) -> Self {
        Self::coded(ErrorCode::Invalid, m)
    }
    pub fn unavailable(m: impl Into<String>) -> Self {
        Self::coded(ErrorCode::Unavailable, m)
    }
    pub fn internal(m: impl Into<String>) -> Self {
        Self::coded(ErrorCode::Internal, m)
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
        let mut body = json!({ "error": self.message, "code": self.code });
        if let Some(Value::Object(map)) = self.details {
            for (k, v) in map {
                body[k] = v;
            }
        }
        let mut response = (self.code.status(), axum::Json(body)).into_response();
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
        tracing::error!("database error: {e}");
        let busy = matches!(&e, sqlx::Error::PoolTimedOut)
            || e.as_database_error()
                .is_some_and(|d| d.message().contains("locked") || d.message().contains("busy"));
        if busy {
            ApiError::coded(ErrorCode::Busy, "the database is busy; try again")
        } else {
            ApiError::internal("internal database error")
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

/// The query string as it came, after every name and value passed the checks [`Params`]
/// makes: for a page that only sends the request on (an old address redirecting to its
/// new one), so that a query is never passed along unchecked.
pub struct QueryString(pub Option<String>);

impl<S> FromRequestParts<S> for QueryString
where
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let Params(_) = Params::<Vec<(String, String)>>::from_request_parts(parts, state).await?;
        Ok(QueryString(parts.uri.query().map(str::to_string)))
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
