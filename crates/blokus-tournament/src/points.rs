//! Match points: exact fractions, so shared places (4 + 2 + 1 split three ways) add up
//! without rounding and equal scores compare equal.

use std::fmt;
use std::iter::Sum;
use std::ops::{Add, AddAssign, Sub};
use std::str::FromStr;

use num_rational::Ratio;
use serde::{de, Deserialize, Deserializer, Serialize, Serializer};

/// A number of match points (or any tournament quantity built from them, such as Buchholz).
///
/// In JSON a value with a short decimal form is a number (`3`, `0.5`, `1.75`); any other
/// is a string fraction (`"7/3"`), so values stay exact both ways.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Points(Ratio<i64>);

impl Points {
    /// No points.
    pub const ZERO: Points = Points(Ratio::new_raw(0, 1));

    /// A whole number of points.
    pub fn whole(n: i64) -> Points {
        Points(Ratio::from_integer(n))
    }

    /// `numer / denom` points.
    ///
    /// # Panics
    /// If `denom` is zero.
    pub fn fraction(numer: i64, denom: i64) -> Points {
        Points(Ratio::new(numer, denom))
    }

    /// The mean of some values (zero for none): how shared places split their points.
    pub fn mean(values: &[Points]) -> Points {
        if values.is_empty() {
            return Points::ZERO;
        }
        let sum: Points = values.iter().copied().sum();
        Points(sum.0 / values.len() as i64)
    }

    /// The value as a float, for ratings and display.
    pub fn to_f64(self) -> f64 {
        *self.0.numer() as f64 / *self.0.denom() as f64
    }

    /// The square of the value (the Swiss pairing cost of a score difference).
    pub fn squared(self) -> Points {
        Points(self.0 * self.0)
    }
}

impl Add for Points {
    type Output = Points;
    fn add(self, o: Points) -> Points {
        Points(self.0 + o.0)
    }
}

impl AddAssign for Points {
    fn add_assign(&mut self, o: Points) {
        self.0 += o.0;
    }
}

impl Sub for Points {
    type Output = Points;
    fn sub(self, o: Points) -> Points {
        Points(self.0 - o.0)
    }
}

impl Sum for Points {
    fn sum<I: Iterator<Item = Points>>(iter: I) -> Points {
        iter.fold(Points::ZERO, Add::add)
    }
}

/// Whole numbers as `3`, halves as `2.5`, anything else rounded to two decimals (`2.33`).
impl fmt::Display for Points {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_integer() {
            write!(f, "{}", self.0.numer())
        } else if *self.0.denom() == 2 {
            write!(f, "{:.1}", self.to_f64())
        } else {
            write!(f, "{:.2}", self.to_f64())
        }
    }
}

/// A text that is not a number of points.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("'{0}' is not a number of points (write e.g. 3, 0.5, 1.25 or 7/3)")]
pub struct BadPoints(pub String);

/// Parses `3`, `-1`, `0.5`, `1.25` or `7/3`.
impl FromStr for Points {
    type Err = BadPoints;
    fn from_str(s: &str) -> Result<Points, BadPoints> {
        let bad = || BadPoints(s.to_string());
        let t = s.trim();
        if let Some((n, d)) = t.split_once('/') {
            let n: i64 = n.trim().parse().map_err(|_| bad())?;
            let d: i64 = d.trim().parse().map_err(|_| bad())?;
            if d == 0 {
                return Err(bad());
            }
            return Ok(Points::fraction(n, d));
        }
        let (int, frac) = t.split_once('.').unwrap_or((t, ""));
        if frac.len() > 6 || !frac.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        let negative = int.starts_with('-');
        let whole: i64 = match int {
            "" | "-" if !frac.is_empty() => 0,
            _ => int.parse().map_err(|_| bad())?,
        };
        let denom = 10i64.pow(frac.len() as u32);
        let part: i64 = if frac.is_empty() {
            0
        } else {
            frac.parse().map_err(|_| bad())?
        };
        let magnitude = whole.abs() * denom + part;
        Ok(Points::fraction(
            if negative { -magnitude } else { magnitude },
            denom,
        ))
    }
}

impl Serialize for Points {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let d = *self.0.denom();
        if self.0.is_integer() {
            s.serialize_i64(*self.0.numer())
        } else if 1_000_000 % d == 0 {
            // Exact in decimal: the shortest float that prints it parses back to it.
            s.serialize_f64(self.to_f64())
        } else {
            s.serialize_str(&format!("{}/{}", self.0.numer(), d))
        }
    }
}

impl<'de> Deserialize<'de> for Points {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Points, D::Error> {
        struct Visit;
        impl de::Visitor<'_> for Visit {
            type Value = Points;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a number of points (3, 0.5, or \"7/3\")")
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Points, E> {
                Ok(Points::whole(v))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Points, E> {
                i64::try_from(v).map(Points::whole).map_err(E::custom)
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<Points, E> {
                v.to_string().parse().map_err(E::custom)
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Points, E> {
                v.parse().map_err(E::custom)
            }
        }
        d.deserialize_any(Visit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shared_places_split_exactly() {
        let third = Points::mean(&[Points::whole(4), Points::whole(2), Points::whole(1)]);
        assert_eq!(third, Points::fraction(7, 3));
        assert_eq!(third + third + third, Points::whole(7));
        assert_eq!(third.to_string(), "2.33");
        assert_eq!(Points::fraction(1, 2).to_string(), "0.5");
        assert_eq!(Points::whole(3).to_string(), "3");
    }

    #[test]
    fn json_keeps_values_exact() {
        for p in [
            Points::whole(3),
            Points::fraction(1, 2),
            Points::fraction(7, 4),
            Points::fraction(7, 3),
            Points::fraction(-1, 10),
        ] {
            let json = serde_json::to_string(&p).unwrap();
            assert_eq!(serde_json::from_str::<Points>(&json).unwrap(), p, "{json}");
        }
        assert_eq!(
            serde_json::to_string(&Points::fraction(7, 3)).unwrap(),
            "\"7/3\""
        );
        assert_eq!(
            serde_json::to_string(&Points::fraction(3, 2)).unwrap(),
            "1.5"
        );
    }

    #[test]
    fn parses_decimals_and_fractions() {
        assert_eq!("0.5".parse::<Points>(), Ok(Points::fraction(1, 2)));
        assert_eq!("-1.25".parse::<Points>(), Ok(Points::fraction(-5, 4)));
        assert_eq!(" 7/3 ".parse::<Points>(), Ok(Points::fraction(7, 3)));
        assert_eq!("6".parse::<Points>(), Ok(Points::whole(6)));
        assert!("x".parse::<Points>().is_err());
        assert!("1/0".parse::<Points>().is_err());
        assert!("1.2.3".parse::<Points>().is_err());
    }
}
