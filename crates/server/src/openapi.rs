//! The OpenAPI document served at `/api/docs`, derived with utoipa from the handlers in
//! [`crate::api`] and their request and response types (`#[utoipa::path]`, `ToSchema`),
//! so that clients can generate code from it and it cannot drift from the code. Tests: every documented route answers (tests/api_basics.rs), and every
//! derived operation has a schema for each body it takes and gives (below).

use std::sync::LazyLock;

use axum::Json;
use serde_json::{json, Value};
use utoipa::openapi::security::{ApiKey, ApiKeyValue, HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::{Modify, OpenApi};

use crate::error::{ErrorBody, ErrorCode};

#[derive(OpenApi)]
#[openapi(
    info(
        title = "Chancery club server",
        description = "Diplomacy games with a game master, UTC deadlines, press and history. Times are UTC: ISO 8601 strings, and `_ms` fields in milliseconds since 1970. Errors are `{\"error\": message, \"code\": code}` (the schema ErrorBody): `code` is stable and names the kind of refusal (ErrorCode lists every one, each with its one status), and some codes add details beside them, described in ErrorBody. Request bodies are limited to 64 KiB (2 MiB when creating a game, for variant files).",
    ),
    paths(docs),
    components(schemas(ErrorBody, ErrorCode)),
    modifiers(&SessionSchemes),
)]
struct Base;

/// How a client shows its session: the token as a Bearer header, or the cookie.
struct SessionSchemes;

impl Modify for SessionSchemes {
    fn modify(&self, doc: &mut utoipa::openapi::OpenApi) {
        if let Some(c) = doc.components.as_mut() {
            c.add_security_scheme(
                "bearer",
                SecurityScheme::Http(HttpBuilder::new().scheme(HttpAuthScheme::Bearer).build()),
            );
            c.add_security_scheme(
                "cookie",
                SecurityScheme::ApiKey(ApiKey::Cookie(ApiKeyValue::new(crate::auth::COOKIE_NAME))),
            );
        }
    }
}

/// The `default` answer of every operation: an error.
fn error_response() -> Value {
    json!({"description": "An error", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorBody"}}}})
}

/// The whole document: the operations derived from [`crate::api`], each with the error
/// answer every operation shares.
pub fn document() -> Value {
    let mut derived = Base::openapi();
    derived.merge(crate::api::router().into_openapi());
    let mut doc = serde_json::to_value(derived).unwrap_or(Value::Null);
    // Each code's one status, beside the list of codes, for clients and for the test
    // that walks them (tests/error_codes.rs).
    let statuses: serde_json::Map<String, Value> = ErrorCode::ALL
        .iter()
        .map(|c| (c.as_str(), json!(c.status().as_u16())))
        .collect();
    doc["components"]["schemas"]["ErrorCode"]["x-status"] = Value::Object(statuses);
    if let Some(paths) = doc["paths"].as_object_mut() {
        for item in paths.values_mut().filter_map(Value::as_object_mut) {
            for operation in item.values_mut() {
                if operation["responses"].get("default").is_none() {
                    operation["responses"]["default"] = error_response();
                }
            }
        }
    }
    doc
}

static DOCUMENT: LazyLock<Value> = LazyLock::new(document);

/// This document.
#[utoipa::path(get, path = "/api/docs", operation_id = "openapi_document", tag = "club",
    responses((status = 200, description = "The OpenAPI document", body = Object)),
)]
pub async fn docs() -> Json<Value> {
    Json(DOCUMENT.clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn has_schema(content: &Value) -> bool {
        content
            .as_object()
            .is_some_and(|c| !c.is_empty() && c.values().all(|m| m.get("schema").is_some()))
    }

    /// Games', accounts' and posts' ids are typed in the server (`GameId`, `AccountId`,
    /// `PostId`) but are the bare integers on the wire, and documented as such: no
    /// schema names the newtypes, and the fields that carry them say integer (int64)
    /// as before.
    #[test]
    fn ids_are_documented_as_integers() {
        let doc = document();
        for newtype in ["GameId", "AccountId", "PostId"] {
            assert!(!doc.to_string().contains(newtype), "no {newtype} schema or reference");
        }
        let schemas = &doc["components"]["schemas"];
        for (schema, field) in [
            ("PhaseList", "game"),
            ("GameView", "id"),
            ("PlayedGame", "game"),
            ("SessionAnswer", "id"),
            ("AccountAnswer", "id"),
            ("PostView", "id"),
            ("Written", "post"),
        ] {
            let property = &schemas[schema]["properties"][field];
            assert_eq!(property["type"], "integer", "{schema}.{field}: {property}");
            assert_eq!(property["format"], "int64", "{schema}.{field}: {property}");
        }
    }

    /// Positions and results are described field by field (the engine's JSON
    /// forms derive their schemas), not as bare objects.
    #[test]
    fn positions_and_results_have_schemas() {
        let doc = document();
        let schemas = &doc["components"]["schemas"];
        let detail = &schemas["PhaseDetail"]["properties"];
        assert_eq!(detail["position"]["$ref"], "#/components/schemas/StateJson", "{detail}");
        assert_eq!(
            detail["result"]["$ref"], "#/components/schemas/AdjudicationJson",
            "{detail}"
        );
        assert_eq!(
            schemas["GameView"]["properties"]["state"]["$ref"],
            "#/components/schemas/StateJson"
        );
        let state = &schemas["StateJson"];
        for field in ["phase", "units", "owners"] {
            assert!(
                state["required"].as_array().unwrap().contains(&json!(field)),
                "StateJson.{field} is always there: {state}"
            );
        }
        // Absent when empty, so not required: a client must not expect them.
        for field in ["dislodged", "standoffs", "carried", "capitals", "disordered"] {
            assert!(state["properties"][field].is_object(), "StateJson.{field}: {state}");
            assert!(!state["required"].as_array().unwrap().contains(&json!(field)));
        }
        // A unit's type is `type` on the wire, as serde writes it.
        assert!(
            schemas["UnitJson"]["properties"]["type"].is_object(),
            "{}",
            schemas["UnitJson"]
        );
        let result = &schemas["ResultJson"];
        for field in ["power", "outcome", "succeeded", "reason"] {
            assert!(
                result["required"].as_array().unwrap().contains(&json!(field)),
                "{result}"
            );
        }
        // A waived build has no unit, so `unit` may be absent.
        assert!(
            !result["required"].as_array().unwrap().contains(&json!("unit")),
            "{result}"
        );
        let adjudication = &schemas["AdjudicationJson"]["properties"];
        assert_eq!(adjudication["next"]["$ref"], "#/components/schemas/StateJson");
        assert_eq!(
            adjudication["results"]["items"]["$ref"],
            "#/components/schemas/ResultJson"
        );
    }

    /// Where `schema` leaves a value undescribed (`{}`, or an object with neither
    /// properties nor typed values), recorded as `at`; references are followed once.
    fn undescribed(schema: &Value, doc: &Value, at: &str, seen: &mut Vec<String>, out: &mut Vec<String>) {
        if let Some(r) = schema.get("$ref").and_then(Value::as_str) {
            let name = r.trim_start_matches("#/components/schemas/").to_string();
            if !seen.contains(&name) {
                seen.push(name.clone());
                undescribed(&doc["components"]["schemas"][&name], doc, &name, seen, out);
            }
            return;
        }
        let Some(fields) = schema.as_object() else {
            out.push(format!("{at}: not a schema"));
            return;
        };
        let mut parts = false;
        for key in ["oneOf", "anyOf", "allOf"] {
            for (i, part) in schema[key].as_array().into_iter().flatten().enumerate() {
                parts = true;
                undescribed(part, doc, &format!("{at}.{key}[{i}]"), seen, out);
            }
        }
        let types: Vec<&str> = match &schema["type"] {
            Value::String(t) => vec![t.as_str()],
            Value::Array(ts) => ts.iter().filter_map(Value::as_str).collect(),
            _ => Vec::new(),
        };
        if types.contains(&"array") {
            match schema.get("items") {
                Some(items) => undescribed(items, doc, &format!("{at}[]"), seen, out),
                None => out.push(format!("{at}: an array of anything")),
            }
        }
        let object = types.contains(&"object") || (types.is_empty() && !parts && fields.get("enum").is_none());
        if object {
            let properties = schema["properties"].as_object();
            for (name, p) in properties.into_iter().flatten() {
                undescribed(p, doc, &format!("{at}.{name}"), seen, out);
            }
            match schema.get("additionalProperties") {
                Some(extra) if extra.is_object() => undescribed(extra, doc, &format!("{at}.*"), seen, out),
                _ if properties.is_some_and(|p| !p.is_empty()) => {}
                _ => out.push(format!("{at}: an object of anything")),
            }
        }
    }

    /// Every body an operation takes or gives is described field by field,
    /// down to its leaves, so that a client generated from the document gets types, not
    /// maps of anything. Two bodies are other standards' documents, named here: the
    /// OpenAPI document itself and a variant's shapes (RFC 7946 GeoJSON).
    #[test]
    fn every_body_is_described_down_to_its_fields() {
        let doc = document();
        let exempt = [("/api/docs", "get"), ("/api/variants/{name}/map.geojson", "get")];
        let mut out = Vec::new();
        let mut bodies = 0;
        for (path, item) in doc["paths"].as_object().expect("paths") {
            for (method, operation) in item.as_object().expect("an operation") {
                if exempt.contains(&(path.as_str(), method.as_str())) {
                    continue;
                }
                let mut contents = vec![(format!("{method} {path} request"), &operation["requestBody"]["content"])];
                for (status, response) in operation["responses"].as_object().expect("responses") {
                    contents.push((format!("{method} {path} {status}"), &response["content"]));
                }
                for (at, content) in contents {
                    for media in content.as_object().into_iter().flat_map(|c| c.values()) {
                        bodies += 1;
                        undescribed(&media["schema"], &doc, &at, &mut Vec::new(), &mut out);
                    }
                }
            }
        }
        assert!(bodies > 100, "the walk saw {bodies} bodies");
        // The walk does find an undescribed body: the exempt GeoJSON is a bare object.
        let mut geojson = Vec::new();
        let shapes = &doc["paths"]["/api/variants/{name}/map.geojson"]["get"]["responses"]["200"]["content"];
        for media in shapes.as_object().expect("the shapes' body").values() {
            undescribed(&media["schema"], &doc, "shapes", &mut Vec::new(), &mut geojson);
        }
        assert_eq!(geojson, vec!["shapes: an object of anything"]);
        assert!(
            out.is_empty(),
            "bodies not described field by field:\n{}",
            out.join("\n")
        );
    }

    /// The OpenAPI document has a schema for every request and response body;
    /// every operation is derived from its handler.
    #[test]
    fn every_derived_operation_has_schemas() {
        let doc = document();
        let mut derived = Base::openapi();
        derived.merge(crate::api::router().into_openapi());
        let derived = serde_json::to_value(derived).unwrap();
        let paths = derived["paths"].as_object().expect("derived paths");
        assert!(!paths.is_empty());
        for (path, item) in paths {
            for method in item.as_object().unwrap().keys() {
                let operation = &doc["paths"][path][method];
                if let Some(body) = operation.get("requestBody") {
                    assert!(
                        has_schema(&body["content"]),
                        "{method} {path}: request body without a schema"
                    );
                }
                let responses = operation["responses"].as_object().unwrap();
                assert!(responses.contains_key("default"), "{method} {path}: no error answer");
                for (status, response) in responses {
                    if let Some(content) = response.get("content") {
                        assert!(has_schema(content), "{method} {path} {status}: body without a schema");
                    }
                }
                assert!(
                    responses
                        .iter()
                        .any(|(s, r)| s.starts_with('2') && r.get("content").is_some()),
                    "{method} {path}: no successful answer with a body"
                );
            }
        }
        // Clients name their functions after operation ids.
        let mut ids: Vec<&str> = paths
            .values()
            .flat_map(|item| item.as_object().unwrap().values())
            .map(|o| o["operationId"].as_str().expect("an operation id"))
            .collect();
        let all = ids.len();
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), all, "operation ids repeat: {ids:?}");
        // Every schema a derived operation refers to is in the document.
        let text = doc.to_string();
        for name in text
            .split("\"#/components/schemas/")
            .skip(1)
            .filter_map(|s| s.split('"').next())
        {
            assert!(doc["components"]["schemas"][name].is_object(), "no schema {name}");
        }
    }
}
