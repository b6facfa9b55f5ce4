//! Tensor metadata of a column (Arrow's `arrow.fixed_shape_tensor`, Ray's
//! `ray.data.arrow_tensor`): its shape and axis names, checked against the space.

use crate::load::convert::sample_fits;
use crate::load::error::{LoadReason, TensorMismatch};
use crate::types::axis::Layout as AxisLayout;
use crate::types::error::Shape;
use crate::types::space::Space;
use arrow_schema::Field;

/// The shape and axis names of an `arrow.fixed_shape_tensor` column.
pub(super) struct Tensor {
    shape: Vec<usize>,
    names: Option<Vec<String>>,
    permutation: Option<Vec<usize>>,
}

pub(super) fn tensor_metadata(field: &Field) -> Option<Tensor> {
    let meta = field.metadata();
    let name = meta.get("ARROW:extension:name").map(String::as_str)?;
    let json = meta.get("ARROW:extension:metadata")?;
    // Ray Data's tensor columns (`ray.data.arrow_tensor`, `_v2`): the metadata is the shape.
    if name.starts_with("ray.data.arrow_tensor") {
        let inner = json.trim().strip_prefix('[')?.strip_suffix(']')?;
        return Some(Tensor {
            shape: inner
                .split(',')
                .map(|s| s.trim().parse().ok())
                .collect::<Option<_>>()?,
            names: None,
            permutation: None,
        });
    }
    if name != "arrow.fixed_shape_tensor" {
        return None;
    }
    Some(Tensor {
        shape: json_list(json, "shape")?
            .iter()
            .map(|s| s.parse().ok())
            .collect::<Option<_>>()?,
        names: json_list(json, "dim_names"),
        permutation: json_list(json, "permutation")
            .and_then(|p| p.iter().map(|s| s.parse().ok()).collect()),
    })
}

/// The items of the JSON list under `key` in a flat JSON object, unquoted (enough for the
/// tensor metadata Arrow writes: lists of integers or of strings).
fn json_list(json: &str, key: &str) -> Option<Vec<String>> {
    let start = json.find(&format!("\"{key}\""))?;
    let rest = &json[start..];
    let open = rest.find('[')?;
    let close = rest[open..].find(']')? + open;
    let items = rest[open + 1..close]
        .split(',')
        .map(|s| s.trim().trim_matches('"').to_owned())
        .filter(|s| !s.is_empty())
        .collect();
    Some(items)
}

pub(super) fn check_tensor<S: Space>(tensor: &Tensor, dims: &[usize]) -> Result<(), LoadReason> {
    let refuse = |hint: String| {
        LoadReason::Tensor(Box::new(TensorMismatch {
            shape: Shape(tensor.shape.clone()),
            names: tensor.names.clone(),
            space: S::describe(),
            hint,
        }))
    };
    if tensor
        .permutation
        .as_ref()
        .is_some_and(|p| p.iter().enumerate().any(|(i, &j)| i != j))
    {
        return Err(refuse(
            ": its data is stored in a permuted order, which this reader does not undo yet".into(),
        ));
    }
    if !sample_fits(&tensor.shape, dims) {
        return Err(refuse(String::new()));
    }
    // Axis names that are axis letters must follow the space's memory order (size-1 axes aside).
    let letters: Vec<char> = <S::Layout as AxisLayout>::LETTERS
        .iter()
        .copied()
        .filter(|&c| c != 'b')
        .zip(dims)
        .filter(|&(_, &d)| d != 1)
        .map(|(c, _)| c)
        .collect();
    if let Some(names) = &tensor.names {
        let named: Option<Vec<char>> = names
            .iter()
            .zip(&tensor.shape)
            .filter(|&(_, &d)| d != 1)
            .map(|(n, _)| {
                let mut chars = n.chars();
                match (chars.next(), chars.next()) {
                    (Some(c), None) => Some(c.to_ascii_lowercase()),
                    _ => None,
                }
            })
            .collect();
        if let Some(named) = named
            && named.iter().all(|c| letters.contains(c))
            && named != letters
        {
            let order: String = names.iter().map(|n| n.to_ascii_lowercase()).collect();
            return Err(refuse(format!(
                ": the file stores the axes in the order `{order}`; ask for a space in that layout (`layout!(b{order})`) and format it"
            )));
        }
    }
    Ok(())
}
