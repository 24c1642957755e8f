//! Secrets in a text file about to be published: the token and key shapes that secret scanners
//! (gitleaks, GitHub's secret scanning) look for. A match names its line and what it looks like,
//! never the secret.

use std::sync::OnceLock;

use regex::bytes::Regex;

/// What a secret looks like, and its pattern.
const PATTERNS: [(&str, &str); 8] = [
    (
        "an Anthropic API key (sk-ant-…)",
        r"\bsk-ant-[A-Za-z0-9_\-]{20,}",
    ),
    (
        "an OpenAI API key (sk-…, sk-proj-…)",
        r"\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_\-]{20,}",
    ),
    (
        "a Hugging Face token (hf_…)",
        r"\b(?:hf_|api_org_)[A-Za-z0-9]{30,}\b",
    ),
    (
        "an AWS access key ID (AKIA…)",
        r"\b(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}\b",
    ),
    (
        "a GitHub token (ghp_…, gho_…, ghs_…)",
        r"\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{36,}\b",
    ),
    (
        "a GitHub fine-grained token (github_pat_…)",
        r"\bgithub_pat_[A-Za-z0-9_]{22,}",
    ),
    (
        "an `Authorization: Bearer` token",
        r#"(?i)authorization["']?\s*[:=]\s*["']?bearer\s+[A-Za-z0-9._~+/\-]{8,}"#,
    ),
    (
        "a private key (-----BEGIN … PRIVATE KEY-----)",
        r"-----BEGIN[ A-Z0-9_-]*PRIVATE KEY(?: BLOCK)?-----",
    ),
];

/// A secret found: where, and what it looks like.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Secret {
    /// 1-based line of its start.
    pub line: usize,
    /// What it looks like: "a Hugging Face token (hf_…)".
    pub what: &'static str,
}

fn patterns() -> &'static [(&'static str, Regex)] {
    static COMPILED: OnceLock<Vec<(&'static str, Regex)>> = OnceLock::new();
    COMPILED.get_or_init(|| {
        PATTERNS
            .iter()
            .map(|(what, pattern)| (*what, Regex::new(pattern).expect("a valid pattern")))
            .collect()
    })
}

/// The first secret in `bytes` (by its place in the file), if any.
pub fn first_secret(bytes: &[u8]) -> Option<Secret> {
    let (start, what) = patterns()
        .iter()
        .filter_map(|(what, regex)| regex.find(bytes).map(|m| (m.start(), *what)))
        .min_by_key(|(start, _)| *start)?;
    let line = bytes[..start].iter().filter(|&&b| b == b'\n').count() + 1;
    Some(Secret { line, what })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Fake secrets in the shapes of real ones (none is a real credential).
    const SHAPES: [(&str, &str); 9] = [
        (
            "HF_TOKEN=hf_AbCdEfGhIjKlMnOpQrStUvWxYzAbCdEfGh",
            "Hugging Face",
        ),
        ("key: sk-proj-Ab12Cd34Ef56Gh78Ij90Kl12Mn34", "OpenAI"),
        ("OPENAI_API_KEY=sk-Ab12Cd34Ef56Gh78Ij90Kl12", "OpenAI"),
        (
            "x-api-key: sk-ant-api03-Ab12Cd34Ef56Gh78Ij90Kl12Mn",
            "Anthropic",
        ),
        ("aws_access_key_id = AKIAIOSFODNN7EXAMPLE", "AWS"),
        (
            "token ghp_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789",
            "GitHub token",
        ),
        (
            "github_pat_11ABCDEFG0123456789_abcdefghijkl",
            "fine-grained",
        ),
        (
            "{\"Authorization\": \"Bearer eyJhbGciOi.abc.def\"}",
            "Bearer",
        ),
        ("-----BEGIN OPENSSH PRIVATE KEY-----", "private key"),
    ];

    #[test]
    fn every_shape_is_found_on_its_line() {
        for (secret, what) in SHAPES {
            let text = format!("{{\"model\": \"m\"}}\nline two\n{secret}\n");
            let found = first_secret(text.as_bytes()).unwrap_or_else(|| panic!("{secret}"));
            assert_eq!(found.line, 3, "{secret}");
            assert!(found.what.contains(what), "{secret}: {}", found.what);
        }
    }

    #[test]
    fn result_files_without_secrets_pass() {
        for text in [
            "{\"model_id\": \"meta-llama/Llama-3.1-8B\", \"tokenizer\": \"hf_tokenizer\"}",
            "backend,sk-learn,task-abc\nvllm,1,2\n",
            "Authorization: none\nAKIA is a prefix\n",
            include_str!("../../../../tests/fixtures/vllm/concurrency2-qwen.json"),
        ] {
            assert_eq!(first_secret(text.as_bytes()), None, "{text:.80}");
        }
    }
}
