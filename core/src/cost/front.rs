//! A configuration's price as a report's front matter states it ([`PriceFront`]), checked into
//! the model's [`Price`].

use serde::Deserialize;

use crate::model::Price;

/// A configuration's `price:` in front matter: `{gpu_hour: 1.10, gpus: 2}`, or a serverless
/// `{per_second: 0.000306, gpus: 1}`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PriceFront {
    /// Dollars per GPU per hour.
    #[serde(default)]
    pub gpu_hour: Option<f64>,
    /// Dollars per second of the whole deployment (serverless platforms).
    #[serde(default)]
    pub per_second: Option<f64>,
    /// How many GPUs; when not given for `gpu_hour`, as many as the results say
    /// ([`crate::cost::hardware_gpus`]: `4x A10G`, else the product of the parallel sizes),
    /// else 1.
    #[serde(default)]
    pub gpus: Option<f64>,
    /// Dollars per kWh of the GPUs' energy, beside the deployment's price: the energy cost
    /// per token where the run's GPU power was recorded.
    #[serde(default)]
    pub kwh: Option<f64>,
}

impl PriceFront {
    /// The price it states, or what is wrong with it; a `gpu_hour` price without `gpus` is for
    /// one GPU.
    pub fn price(&self) -> Result<Price, String> {
        self.price_on(None)
    }

    /// The price of a deployment on `hardware_gpus` GPUs, as its results state them (`4x
    /// A10G`): the count a `gpu_hour` price is multiplied by when `gpus` is not given. A run on
    /// four GPUs priced per GPU-hour costs four GPU-hours an hour.
    pub fn price_on(&self, hardware_gpus: Option<u32>) -> Result<Price, String> {
        let gpus = match self.gpus {
            None if self.gpu_hour.is_some() => hardware_gpus,
            None => None,
            Some(n) if n >= 1.0 && n.fract() == 0.0 && n <= f64::from(u32::MAX) => Some(n as u32),
            Some(n) => {
                return Err(format!(
                    "`gpus: {n}` is not a GPU count; expected a whole number of at least 1"
                ))
            }
        };
        let positive = |key: &str, value: f64| {
            if value > 0.0 && value.is_finite() {
                Ok(value)
            } else {
                Err(format!(
                    "`{key}: {value}` is not a price; expected a positive number of dollars"
                ))
            }
        };
        let usd_per_hour = match (self.gpu_hour, self.per_second) {
            (Some(hour), None) => positive("gpu_hour", hour)? * f64::from(gpus.unwrap_or(1)),
            (None, Some(second)) => positive("per_second", second)? * 3600.0,
            _ => {
                return Err(
                    "give either `gpu_hour` (dollars per GPU per hour, with `gpus`) or \
                     `per_second` (a serverless price for the whole deployment)"
                        .to_string(),
                )
            }
        };
        let usd_per_kwh = self.kwh.map(|k| positive("kwh", k)).transpose()?;
        Ok(Price {
            usd_per_hour,
            gpus,
            usd_per_kwh,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The front matter `price:` written as JSON (YAML's flow style).
    fn front(json: &str) -> PriceFront {
        serde_json::from_str(json).unwrap()
    }

    #[test]
    fn a_gpu_hour_price_times_gpus_and_a_per_second_price_become_dollars_per_hour() {
        let p = front(r#"{"gpu_hour": 2.5, "gpus": 4}"#).price().unwrap();
        assert_eq!((p.usd_per_hour, p.gpus), (10.0, Some(4)));
        let p = front(r#"{"gpu_hour": 2.5, "gpus": 4, "kwh": 0.12}"#)
            .price()
            .unwrap();
        assert_eq!(p.usd_per_kwh, Some(0.12));
        // 0.15 J a token: 150 kJ a million, 0.0417 kWh, half a cent at $0.12.
        assert!((p.energy_per_million(0.15).unwrap() - 0.005).abs() < 1e-12);
        let e = front(r#"{"gpu_hour": 2.5, "kwh": -1}"#)
            .price()
            .unwrap_err();
        assert!(e.contains("`kwh: -1`"), "{e}");
        // Without `gpus`, the results' hardware counts the GPU-hours; `gpus` stated wins.
        let p = front(r#"{"gpu_hour": 2.0}"#).price_on(Some(4)).unwrap();
        assert_eq!((p.usd_per_hour, p.gpus), (8.0, Some(4)));
        let p = front(r#"{"gpu_hour": 2.0, "gpus": 2}"#)
            .price_on(Some(4))
            .unwrap();
        assert_eq!((p.usd_per_hour, p.gpus), (4.0, Some(2)));
        let p = front(r#"{"per_second": 0.001}"#).price_on(Some(4)).unwrap();
        assert_eq!(p.gpus, None);
        let p = front(r#"{"per_second": 0.001}"#).price().unwrap();
        assert!((p.usd_per_hour - 3.6).abs() < 1e-12);
        assert_eq!(p.gpus, None);
        // $3.60 an hour at 1,000 tok/s: 10⁶ tokens take 1,000 s, which cost $1.
        assert!((p.per_million(1000.0).unwrap() - 1.0).abs() < 1e-12);
        assert_eq!(p.per_million(0.0), None);
    }

    #[test]
    fn bad_prices_say_what_is_expected() {
        for (json, expected) in [
            (r#"{"gpu_hour": -1}"#, "`gpu_hour: -1` is not a price"),
            (r#"{"per_second": 0}"#, "`per_second: 0` is not a price"),
            (
                r#"{"gpu_hour": 1, "gpus": 0}"#,
                "`gpus: 0` is not a GPU count",
            ),
            (
                r#"{"gpu_hour": 1, "gpus": 1.5}"#,
                "`gpus: 1.5` is not a GPU count",
            ),
            (r#"{"gpus": 2}"#, "give either `gpu_hour`"),
            (
                r#"{"gpu_hour": 1, "per_second": 1}"#,
                "give either `gpu_hour`",
            ),
        ] {
            let e = front(json).price().unwrap_err();
            assert!(e.contains(expected), "{json}: {e}");
        }
    }
}
