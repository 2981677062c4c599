//! `blokus bench`: quick figures for move generation and random playouts, one thread.
//!
//! Each figure is the median of several timed rounds, so one disturbed round (these
//! machines are shared) does not decide it. Criterion benches (`cargo bench`) give the
//! detailed numbers; this command gives a user the same figures from the binary.

use blokus_core::Colour;
use std::io::Write;
use std::time::Instant;

use blokus_core::cube::{AnyVariant, CubePlayout, CubePosition, CubeRules, DEFAULT_SITE};
use blokus_core::playout::Playout;
use blokus_core::{Position, Rules};
use rand::rngs::SmallRng;
use rand::SeedableRng;

use super::CmdResult;

/// Arguments of `blokus bench`.
#[derive(clap::Args)]
pub struct Args {
    /// Variants to measure (default: duo, classic, trigon_2, polyomino_hexa, rumis_4).
    #[arg(long = "variant", value_name = "ID")]
    variants: Vec<String>,
    /// The site of Blokus 3D variants: a built-in name or a site file.
    #[arg(long, default_value = DEFAULT_SITE)]
    site: String,
    /// Seconds per variant (split into 5 rounds).
    #[arg(long, default_value_t = 2.5)]
    seconds: f64,
    /// Print JSON instead of a table.
    #[arg(long)]
    json: bool,
}

/// Measured figures of one variant.
#[derive(serde::Serialize)]
struct Figures {
    variant: String,
    playouts_per_second: f64,
    moves_per_game: f64,
    legal_moves_start_us: f64,
}

/// Runs the subcommand.
pub fn run(args: Args) -> CmdResult {
    if !(args.seconds > 0.0 && args.seconds <= 600.0) {
        return Err("--seconds must be between 0 and 600".into());
    }
    let ids = if args.variants.is_empty() {
        vec![
            "duo".to_string(),
            "classic".into(),
            "trigon_2".into(),
            "polyomino_hexa".into(),
            "rumis_4".into(),
        ]
    } else {
        args.variants.clone()
    };
    let mut all = Vec::new();
    for id in &ids {
        all.push(match AnyVariant::parse(id)? {
            AnyVariant::Flat(v) => measure_flat(&Rules::by_name(v.as_str())?, args.seconds),
            AnyVariant::Cube(v) => {
                measure_cube(&super::site_arg::rules(v, &args.site)?, args.seconds)
            }
        });
    }
    let mut out = std::io::stdout().lock();
    if args.json {
        writeln!(out, "{}", serde_json::to_string_pretty(&all)?)?;
        return Ok(());
    }
    writeln!(
        out,
        "{:<20} {:>14} {:>12} {:>18}",
        "variant", "playouts/s", "moves/game", "legal moves (µs)"
    )?;
    for f in &all {
        writeln!(
            out,
            "{:<20} {:>14.0} {:>12.1} {:>18.1}",
            f.variant, f.playouts_per_second, f.moves_per_game, f.legal_moves_start_us
        )?;
    }
    writeln!(out, "(one thread; median of 5 rounds)")?;
    Ok(())
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn measure_flat(rules: &Rules, seconds: f64) -> Figures {
    let start = Position::new(rules);
    let mut scratch = Playout::new(rules);
    measure(
        rules.v().id.to_string(),
        seconds,
        |rng| scratch.run(rules, &mut start.clone(), rng),
        || start.legal_moves(rules, Colour(0)).len(),
    )
}

fn measure_cube(rules: &CubeRules, seconds: f64) -> Figures {
    let start = CubePosition::new(rules);
    let mut scratch = CubePlayout::new(rules);
    let id = blokus_core::cube::CubeVariantId::of_seating(rules.seating());
    measure(
        format!("{id}/{}", rules.site().name()),
        seconds,
        |rng| scratch.run(rules, &mut start.clone(), rng),
        || start.legal_moves(rules.table(), start.to_move()).len(),
    )
}

/// Times `playout` (one random game from the start, returning its placements) and
/// `list` (the first colour's legal moves at the start): medians of 5 rounds.
fn measure(
    variant: String,
    seconds: f64,
    mut playout: impl FnMut(&mut SmallRng) -> usize,
    mut list: impl FnMut() -> usize,
) -> Figures {
    let mut rng = SmallRng::seed_from_u64(1);
    let round = seconds / 5.0;
    let (mut rates, mut moves, mut games) = (Vec::new(), 0usize, 0usize);
    for _ in 0..5 {
        let t = Instant::now();
        let mut n = 0;
        while t.elapsed().as_secs_f64() < round {
            moves += playout(&mut rng);
            n += 1;
        }
        games += n;
        rates.push(n as f64 / t.elapsed().as_secs_f64());
    }
    let mut gen = Vec::new();
    for _ in 0..5 {
        let t = Instant::now();
        let mut k = 0;
        while t.elapsed().as_secs_f64() < round / 10.0 {
            std::hint::black_box(list());
            k += 1;
        }
        gen.push(t.elapsed().as_secs_f64() * 1e6 / k as f64);
    }
    Figures {
        variant,
        playouts_per_second: median(rates),
        moves_per_game: moves as f64 / games.max(1) as f64,
        legal_moves_start_us: median(gen),
    }
}
