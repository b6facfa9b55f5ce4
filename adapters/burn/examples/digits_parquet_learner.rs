//! burn's own training loop (`SupervisedTraining` with a `Learner`) fed straight from a
//! directory of Parquet part files, the way Spark writes them, with no loop over batches written
//! by hand: a `ParquetStream` reads the rank's share two row groups at a time (memory holds two
//! windows and a batch, whatever the size of the directory), converts each batch to the model's
//! request (`bhwc u8` images to flat `f32` features, `u8` labels to `i64`), runs on a thread of
//! its own, and is burn's `DataLoader` through `SourceLoader`. Exits with an error below 0.9
//! held-out accuracy.
//!
//! `cargo run --release -p batchspec-burn --example digits_parquet_learner`

use arrow_array::{ArrayRef, FixedSizeListArray, Int64Array, RecordBatch, UInt8Array};
use arrow_schema::{DataType, Field, Schema};
use batchspec::data::{BatchSource, Dataset};
use batchspec::iteration::permutation;
use batchspec::load::{ParquetFiles, ParquetStream, Rank, ShardPlan};
use batchspec::prelude::*;
use batchspec_burn::{SourceLoader, Tensors};
use batchspec_quickstart::{Digits, load_digits};
use burn::data::dataloader::DataLoader;
use burn::module::Module;
use burn::nn::loss::CrossEntropyLossConfig;
use burn::nn::{Linear, LinearConfig};
use burn::optim::AdamConfig;
use burn::tensor::activation::relu;
use burn::tensor::{Device, Int, Tensor};
use burn::train::{
    ClassificationOutput, InferenceStep, Learner, SupervisedTraining, TrainOutput, TrainStep,
};
use parquet::arrow::ArrowWriter;
use parquet::basic::Compression;
use parquet::file::properties::WriterProperties;
use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

/// What the model asks for: flat float features, one label per sample.
#[derive(DataSpec)]
struct Input {
    #[spec(source = "features")]
    x: Batch<Vector<64>>,
    #[spec(source = "targets")]
    y: Batch<Labels<10, i64>>,
}

#[derive(Module, Debug)]
struct Mlp {
    hidden: Linear,
    out: Linear,
}

impl Mlp {
    fn forward(&self, x: Tensor<2>) -> Tensor<2> {
        self.out
            .forward(relu(self.hidden.forward(x.div_scalar(16.0))))
    }

    fn classify(&self, batch: Tensors<Input>) -> ClassificationOutput {
        let targets: Tensor<1, Int> = batch.y;
        let output = self.forward(batch.x);
        let loss = CrossEntropyLossConfig::new()
            .init(&output.device())
            .forward(output.clone(), targets.clone());
        ClassificationOutput::new(loss, output, targets)
    }
}

impl TrainStep for Mlp {
    type Input = Tensors<Input>;
    type Output = ClassificationOutput;
    fn step(&self, batch: Tensors<Input>) -> TrainOutput<ClassificationOutput> {
        let item = self.classify(batch);
        TrainOutput::new(self, item.loss.backward(), item)
    }
}

impl InferenceStep for Mlp {
    type Input = Tensors<Input>;
    type Output = ClassificationOutput;
    fn step(&self, batch: Tensors<Input>) -> ClassificationOutput {
        self.classify(batch)
    }
}

/// Writes the samples `rows` of `digits` as `parts` snappy part files of row groups of `group`
/// rows, with Spark's `_SUCCESS` marker: images as an `arrow.fixed_shape_tensor` of 8×8×1,
/// labels as int64.
fn write_parts(
    digits: &Dataset<Digits>,
    rows: &[usize],
    dir: &Path,
    parts: usize,
    group: usize,
) -> Result<(), Box<dyn std::error::Error>> {
    std::fs::create_dir_all(dir)?;
    let tensor = HashMap::from([
        (
            "ARROW:extension:name".into(),
            "arrow.fixed_shape_tensor".into(),
        ),
        (
            "ARROW:extension:metadata".into(),
            r#"{"shape":[8,8,1],"dim_names":["H","W","C"]}"#.into(),
        ),
    ]);
    let item = Arc::new(Field::new("item", DataType::UInt8, false));
    let schema = Arc::new(Schema::new(vec![
        Field::new("features", DataType::FixedSizeList(item.clone(), 64), false)
            .with_metadata(tensor),
        Field::new("targets", DataType::Int64, false),
    ]));
    for (k, chunk) in rows.chunks(rows.len().div_ceil(parts)).enumerate() {
        let part = Dataset::new(digits.select(chunk)?)?;
        let pixels = UInt8Array::from_iter_values(part.fields().image.array().iter().copied());
        let labels = part.fields().label.array().iter().map(|&l| i64::from(l));
        let features = FixedSizeListArray::try_new(item.clone(), 64, Arc::new(pixels), None)?;
        let columns: Vec<ArrayRef> = vec![
            Arc::new(features),
            Arc::new(Int64Array::from_iter_values(labels)),
        ];
        let props = WriterProperties::builder()
            .set_compression(Compression::SNAPPY)
            .set_max_row_group_row_count(Some(group))
            .build();
        let file = std::fs::File::create(dir.join(format!("part-{k:05}.snappy.parquet")))?;
        let mut writer = ArrowWriter::try_new(file, schema.clone(), Some(props))?;
        writer.write(&RecordBatch::try_new(schema.clone(), columns)?)?;
        writer.close()?;
    }
    std::fs::write(dir.join("_SUCCESS"), b"")?;
    Ok(())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let digits = load_digits()?;
    let order = permutation(digits.len(), 2026, 0);
    let cut = digits.len() * 4 / 5;
    let dir =
        std::env::temp_dir().join(format!("batchspec-parquet-learner-{}", std::process::id()));
    write_parts(&digits, &order[..cut], &dir.join("train"), 4, 64)?;
    write_parts(&digits, &order[cut..], &dir.join("valid"), 1, 64)?;
    let device = Device::flex().autodiff();

    // The data side, in full: this rank's share of the part files (`Rank::from_env()` under a
    // launcher), shuffled by (seed, epoch), streamed two row groups at a time, converted to the
    // model's request, prefetched on a thread of its own, as burn's DataLoader.
    let train = ParquetFiles::open(dir.join("train"))?;
    let plan = ShardPlan::new(&train, Rank::new(0, 1)?)?.shuffle(7);
    let stream = ParquetStream::<Digits>::new(&train, &plan, 0, 32, 2).read_ahead();
    let loader = SourceLoader::new(stream.into_request::<Input>().prefetched(2), &device);

    let valid = ParquetFiles::open(dir.join("valid"))?;
    let valid_plan = ShardPlan::new(&valid, Rank::new(0, 1)?)?;
    let valid_stream = ParquetStream::<Digits>::new(&valid, &valid_plan, 0, 128, 2);
    let valid_loader = SourceLoader::new(valid_stream.into_request::<Input>(), &device);
    println!(
        "{} training samples in {} row groups, {} held out",
        loader.num_items(),
        plan.row_groups(0).len(),
        valid_loader.num_items()
    );

    let model = Mlp {
        hidden: LinearConfig::new(64, 64).init(&device),
        out: LinearConfig::new(64, 10).init(&device),
    };
    let training = SupervisedTraining::new(
        dir.join("learner"),
        Arc::new(loader.clone()),
        Arc::new(valid_loader.clone()),
    )
    .num_epochs(8);
    let model = training
        .launch(Learner::new(model, AdamConfig::new().init(), 2e-3))
        .model;
    println!("the learner asked for {} epochs", loader.next_epoch());

    // The trained model on the held-out part file, through the same loader.
    let (mut hits, mut total) = (0usize, 0usize);
    for batch in valid_loader.iter() {
        let batch = batch?;
        let y: Tensor<1, Int> = batch.y;
        total += y.dims()[0];
        let predicted = model.forward(batch.x).argmax(1).squeeze_dim::<1>(1);
        let h: i64 = predicted.equal(y).int().sum().into_scalar();
        hits += h as usize;
    }
    std::fs::remove_dir_all(&dir)?;
    let accuracy = hits as f64 / total as f64;
    println!("held-out accuracy: {accuracy:.4} on {total} samples (bar 0.9)");
    if accuracy < 0.9 {
        return Err(format!("held-out accuracy {accuracy:.4} is below 0.9").into());
    }
    Ok(())
}
