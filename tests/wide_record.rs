//! A record of 256 leaves at the default recursion limit: derived, checked, stored, served by a
//! provider and a server, selected from, and read through a small request of two of its
//! sources (the first and the last). Before the flat forms were trees, `cargo check` of such a
//! record failed at about 120 leaves (E0275); this file does not compile if that comes back.
//!
//! The struct is written out by the script in its last lines (a comment), so that its fields
//! can be checked by eye.

use batchspec::data::Provider;
use batchspec::data::{AllocFlat, Dataset};
use batchspec::iteration::Schedule;
use batchspec::mapping::Server;
use batchspec::prelude::*;

#[derive(DataSpec)]
struct Wide {
    f0: Batch<Vector<1>>,
    f1: Batch<Index<3>>,
    f2: Batch<Labels<10>>,
    f3: Batch<Vector<2, f64>>,
    f4: Batch<Vector<5>>,
    f5: Batch<Index<2>>,
    f6: Batch<Labels<10>>,
    f7: Batch<Vector<2, f64>>,
    f8: Batch<Vector<2>>,
    f9: Batch<Index<6>>,
    f10: Batch<Labels<10>>,
    f11: Batch<Vector<2, f64>>,
    f12: Batch<Vector<6>>,
    f13: Batch<Index<5>>,
    f14: Batch<Labels<10>>,
    f15: Batch<Vector<2, f64>>,
    f16: Batch<Vector<3>>,
    f17: Batch<Index<4>>,
    f18: Batch<Labels<10>>,
    f19: Batch<Vector<2, f64>>,
    f20: Batch<Vector<7>>,
    f21: Batch<Index<3>>,
    f22: Batch<Labels<10>>,
    f23: Batch<Vector<2, f64>>,
    f24: Batch<Vector<4>>,
    f25: Batch<Index<2>>,
    f26: Batch<Labels<10>>,
    f27: Batch<Vector<2, f64>>,
    f28: Batch<Vector<1>>,
    f29: Batch<Index<6>>,
    f30: Batch<Labels<10>>,
    f31: Batch<Vector<2, f64>>,
    f32: Batch<Vector<5>>,
    f33: Batch<Index<5>>,
    f34: Batch<Labels<10>>,
    f35: Batch<Vector<2, f64>>,
    f36: Batch<Vector<2>>,
    f37: Batch<Index<4>>,
    f38: Batch<Labels<10>>,
    f39: Batch<Vector<2, f64>>,
    f40: Batch<Vector<6>>,
    f41: Batch<Index<3>>,
    f42: Batch<Labels<10>>,
    f43: Batch<Vector<2, f64>>,
    f44: Batch<Vector<3>>,
    f45: Batch<Index<2>>,
    f46: Batch<Labels<10>>,
    f47: Batch<Vector<2, f64>>,
    f48: Batch<Vector<7>>,
    f49: Batch<Index<6>>,
    f50: Batch<Labels<10>>,
    f51: Batch<Vector<2, f64>>,
    f52: Batch<Vector<4>>,
    f53: Batch<Index<5>>,
    f54: Batch<Labels<10>>,
    f55: Batch<Vector<2, f64>>,
    f56: Batch<Vector<1>>,
    f57: Batch<Index<4>>,
    f58: Batch<Labels<10>>,
    f59: Batch<Vector<2, f64>>,
    f60: Batch<Vector<5>>,
    f61: Batch<Index<3>>,
    f62: Batch<Labels<10>>,
    f63: Batch<Vector<2, f64>>,
    f64: Batch<Vector<2>>,
    f65: Batch<Index<2>>,
    f66: Batch<Labels<10>>,
    f67: Batch<Vector<2, f64>>,
    f68: Batch<Vector<6>>,
    f69: Batch<Index<6>>,
    f70: Batch<Labels<10>>,
    f71: Batch<Vector<2, f64>>,
    f72: Batch<Vector<3>>,
    f73: Batch<Index<5>>,
    f74: Batch<Labels<10>>,
    f75: Batch<Vector<2, f64>>,
    f76: Batch<Vector<7>>,
    f77: Batch<Index<4>>,
    f78: Batch<Labels<10>>,
    f79: Batch<Vector<2, f64>>,
    f80: Batch<Vector<4>>,
    f81: Batch<Index<3>>,
    f82: Batch<Labels<10>>,
    f83: Batch<Vector<2, f64>>,
    f84: Batch<Vector<1>>,
    f85: Batch<Index<2>>,
    f86: Batch<Labels<10>>,
    f87: Batch<Vector<2, f64>>,
    f88: Batch<Vector<5>>,
    f89: Batch<Index<6>>,
    f90: Batch<Labels<10>>,
    f91: Batch<Vector<2, f64>>,
    f92: Batch<Vector<2>>,
    f93: Batch<Index<5>>,
    f94: Batch<Labels<10>>,
    f95: Batch<Vector<2, f64>>,
    f96: Batch<Vector<6>>,
    f97: Batch<Index<4>>,
    f98: Batch<Labels<10>>,
    f99: Batch<Vector<2, f64>>,
    f100: Batch<Vector<3>>,
    f101: Batch<Index<3>>,
    f102: Batch<Labels<10>>,
    f103: Batch<Vector<2, f64>>,
    f104: Batch<Vector<7>>,
    f105: Batch<Index<2>>,
    f106: Batch<Labels<10>>,
    f107: Batch<Vector<2, f64>>,
    f108: Batch<Vector<4>>,
    f109: Batch<Index<6>>,
    f110: Batch<Labels<10>>,
    f111: Batch<Vector<2, f64>>,
    f112: Batch<Vector<1>>,
    f113: Batch<Index<5>>,
    f114: Batch<Labels<10>>,
    f115: Batch<Vector<2, f64>>,
    f116: Batch<Vector<5>>,
    f117: Batch<Index<4>>,
    f118: Batch<Labels<10>>,
    f119: Batch<Vector<2, f64>>,
    f120: Batch<Vector<2>>,
    f121: Batch<Index<3>>,
    f122: Batch<Labels<10>>,
    f123: Batch<Vector<2, f64>>,
    f124: Batch<Vector<6>>,
    f125: Batch<Index<2>>,
    f126: Batch<Labels<10>>,
    f127: Batch<Vector<2, f64>>,
    f128: Batch<Vector<3>>,
    f129: Batch<Index<6>>,
    f130: Batch<Labels<10>>,
    f131: Batch<Vector<2, f64>>,
    f132: Batch<Vector<7>>,
    f133: Batch<Index<5>>,
    f134: Batch<Labels<10>>,
    f135: Batch<Vector<2, f64>>,
    f136: Batch<Vector<4>>,
    f137: Batch<Index<4>>,
    f138: Batch<Labels<10>>,
    f139: Batch<Vector<2, f64>>,
    f140: Batch<Vector<1>>,
    f141: Batch<Index<3>>,
    f142: Batch<Labels<10>>,
    f143: Batch<Vector<2, f64>>,
    f144: Batch<Vector<5>>,
    f145: Batch<Index<2>>,
    f146: Batch<Labels<10>>,
    f147: Batch<Vector<2, f64>>,
    f148: Batch<Vector<2>>,
    f149: Batch<Index<6>>,
    f150: Batch<Labels<10>>,
    f151: Batch<Vector<2, f64>>,
    f152: Batch<Vector<6>>,
    f153: Batch<Index<5>>,
    f154: Batch<Labels<10>>,
    f155: Batch<Vector<2, f64>>,
    f156: Batch<Vector<3>>,
    f157: Batch<Index<4>>,
    f158: Batch<Labels<10>>,
    f159: Batch<Vector<2, f64>>,
    f160: Batch<Vector<7>>,
    f161: Batch<Index<3>>,
    f162: Batch<Labels<10>>,
    f163: Batch<Vector<2, f64>>,
    f164: Batch<Vector<4>>,
    f165: Batch<Index<2>>,
    f166: Batch<Labels<10>>,
    f167: Batch<Vector<2, f64>>,
    f168: Batch<Vector<1>>,
    f169: Batch<Index<6>>,
    f170: Batch<Labels<10>>,
    f171: Batch<Vector<2, f64>>,
    f172: Batch<Vector<5>>,
    f173: Batch<Index<5>>,
    f174: Batch<Labels<10>>,
    f175: Batch<Vector<2, f64>>,
    f176: Batch<Vector<2>>,
    f177: Batch<Index<4>>,
    f178: Batch<Labels<10>>,
    f179: Batch<Vector<2, f64>>,
    f180: Batch<Vector<6>>,
    f181: Batch<Index<3>>,
    f182: Batch<Labels<10>>,
    f183: Batch<Vector<2, f64>>,
    f184: Batch<Vector<3>>,
    f185: Batch<Index<2>>,
    f186: Batch<Labels<10>>,
    f187: Batch<Vector<2, f64>>,
    f188: Batch<Vector<7>>,
    f189: Batch<Index<6>>,
    f190: Batch<Labels<10>>,
    f191: Batch<Vector<2, f64>>,
    f192: Batch<Vector<4>>,
    f193: Batch<Index<5>>,
    f194: Batch<Labels<10>>,
    f195: Batch<Vector<2, f64>>,
    f196: Batch<Vector<1>>,
    f197: Batch<Index<4>>,
    f198: Batch<Labels<10>>,
    f199: Batch<Vector<2, f64>>,
    f200: Batch<Vector<5>>,
    f201: Batch<Index<3>>,
    f202: Batch<Labels<10>>,
    f203: Batch<Vector<2, f64>>,
    f204: Batch<Vector<2>>,
    f205: Batch<Index<2>>,
    f206: Batch<Labels<10>>,
    f207: Batch<Vector<2, f64>>,
    f208: Batch<Vector<6>>,
    f209: Batch<Index<6>>,
    f210: Batch<Labels<10>>,
    f211: Batch<Vector<2, f64>>,
    f212: Batch<Vector<3>>,
    f213: Batch<Index<5>>,
    f214: Batch<Labels<10>>,
    f215: Batch<Vector<2, f64>>,
    f216: Batch<Vector<7>>,
    f217: Batch<Index<4>>,
    f218: Batch<Labels<10>>,
    f219: Batch<Vector<2, f64>>,
    f220: Batch<Vector<4>>,
    f221: Batch<Index<3>>,
    f222: Batch<Labels<10>>,
    f223: Batch<Vector<2, f64>>,
    f224: Batch<Vector<1>>,
    f225: Batch<Index<2>>,
    f226: Batch<Labels<10>>,
    f227: Batch<Vector<2, f64>>,
    f228: Batch<Vector<5>>,
    f229: Batch<Index<6>>,
    f230: Batch<Labels<10>>,
    f231: Batch<Vector<2, f64>>,
    f232: Batch<Vector<2>>,
    f233: Batch<Index<5>>,
    f234: Batch<Labels<10>>,
    f235: Batch<Vector<2, f64>>,
    f236: Batch<Vector<6>>,
    f237: Batch<Index<4>>,
    f238: Batch<Labels<10>>,
    f239: Batch<Vector<2, f64>>,
    f240: Batch<Vector<3>>,
    f241: Batch<Index<3>>,
    f242: Batch<Labels<10>>,
    f243: Batch<Vector<2, f64>>,
    f244: Batch<Vector<7>>,
    f245: Batch<Index<2>>,
    f246: Batch<Labels<10>>,
    f247: Batch<Vector<2, f64>>,
    f248: Batch<Vector<4>>,
    f249: Batch<Index<6>>,
    f250: Batch<Labels<10>>,
    f251: Batch<Vector<2, f64>>,
    f252: Batch<Vector<1>>,
    f253: Batch<Index<5>>,
    f254: Batch<Labels<10>>,
    f255: Batch<Vector<2, f64>>,
}

/// Two of the record's sources, in other spaces: `f0` (a `Vector<1>`) as it is stored, and the
/// last leaf `f255` (a `Vector<2, f64>`) as `f32`.
#[derive(DataSpec)]
struct Ends {
    #[spec(source = "f0")]
    first: Batch<Vector<1>>,
    #[spec(source = "f255")]
    last: Batch<Vector<2>>,
}

const _: () = batchspec::mapping::assert_serves::<Wide, Wide>();
const _: () = batchspec::mapping::assert_serves::<Wide, Ends>();

fn record(samples: usize) -> Wide {
    let mut wide = Wide::nest(<batchspec::types::FlatOf<Wide> as AllocFlat>::alloc(
        samples, 0,
    ));
    for (i, v) in wide.f0.array_mut().iter_mut().enumerate() {
        *v = i as f32;
    }
    for (i, v) in wide.f255.array_mut().iter_mut().enumerate() {
        *v = 100.0 + i as f64;
    }
    wide
}

#[test]
fn a_record_of_256_leaves_is_stored_served_and_selected() {
    assert_eq!(Wide::LEAVES, 256);
    assert_eq!(Wide::describe(3).len(), 256);
    let ds = Dataset::new(record(5)).unwrap();
    assert_eq!(ds.len(), 5);

    let schedule = Schedule::builder(ds.len()).batch_size(2).build().unwrap();
    let mut provider = Provider::<Wide, Ends>::new(&ds, schedule).unwrap();
    let mut firsts = Vec::new();
    let mut lasts = Vec::new();
    while let Some(b) = provider.next_batch() {
        firsts.extend(b.batch.first.array().iter().copied());
        lasts.extend(b.batch.last.array().iter().copied());
    }
    assert_eq!(firsts, [0.0, 1.0, 2.0, 3.0, 4.0]);
    let want: Vec<f32> = (0..10).map(|i| 100.0 + i as f32).collect();
    assert_eq!(lasts, want);

    let mut server = Server::new(ds.fields());
    let again: Wide = server.get();
    assert_eq!(again.f255.array(), ds.fields().f255.array());
    let ends: Ends = server.get();
    assert_eq!(ends.last.array().row(4).to_vec(), [108.0, 109.0]);

    let picked = ds.select(&[3, 1]).unwrap();
    assert_eq!(picked.f0.array().column(0).to_vec(), [3.0, 1.0]);
    assert_eq!(picked.f255.array().row(0).to_vec(), [106.0, 107.0]);
    assert_eq!(
        picked.f254.array(),
        ds.fields().f254.array().select(ndarray::Axis(0), &[3, 1])
    );
}

// The struct's fields were written by:
// python3 -c 'kinds = ["Batch<Vector<{a}>>", "Batch<Index<{b}>>", "Batch<Labels<10>>", "Batch<Vector<2, f64>>"]
// print("\n".join(f"    f{i}: " + kinds[i % 4].format(a=i % 7 + 1, b=i % 5 + 2) + "," for i in range(256)))'
