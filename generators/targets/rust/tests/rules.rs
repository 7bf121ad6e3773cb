//! The cross-field rule kinds that read text the way another program does, on the spec's vectors
//! (spec/agent-connector/vectors): noSecrets against the Agent Connector host's secret filter
//! verdicts (secret-text.json), whatwgUrl and urlOriginIn against the WHATWG URL Standard's
//! (whatwg-urls.json). The TS, Kotlin and Swift runtimes read the same files.
//! cases: agent-connector/secret-text.json agent-connector/whatwg-urls.json

mod support;

use agent_contracts::runtime::rules::{https_url, origin_of, UrlForm};
use agent_contracts::runtime::secret_text::contains_secret;

#[test]
fn no_secrets_gives_the_filter_verdicts() {
    let file = support::read_json("agent-connector/secret-text.json");
    let cases = support::cases(&file);
    assert!(cases.len() >= 100, "{}", cases.len());
    let wrong: Vec<String> = cases
        .iter()
        .filter(|case| contains_secret(support::text(case, "text")) != case["secret"].as_bool().expect("secret"))
        .map(|case| format!("{} (secret: {})", case["name"], case["secret"]))
        .collect();
    assert!(wrong.is_empty(), "{wrong:#?}");
}

#[test]
fn whatwg_url_forms_and_origins_follow_the_url_standard() {
    let file = support::read_json("agent-connector/whatwg-urls.json");
    let cases = support::cases(&file);
    assert!(cases.len() >= 80, "{}", cases.len());
    let mut wrong = Vec::new();
    for case in cases {
        let url = support::text(case, "url");
        let got = (https_url(url, UrlForm::Origin), https_url(url, UrlForm::Endpoint), origin_of(url));
        let want = (case["origin"].as_bool().expect("origin"), case["endpoint"].as_bool().expect("endpoint"), case["originOf"].as_str().map(str::to_string));
        if got != want {
            wrong.push(format!("{} {url:?}: got {got:?}, want {want:?}", case["name"]));
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
}
