//! burn's own training loop (`burn::train::SupervisedTraining` with a `Learner`) fed by
//! `SpecLoader`s: the learner moves the loaders to its device, asks for an epoch per `iter()`,
//! reads the progress, and trains a model on the digits to a held-out accuracy no guess reaches.

use batchspec::data::Dataset;
use batchspec::iteration::{Schedule, permutation};
use batchspec::prelude::*;
use batchspec_burn::{SpecLoader, Tensors};
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
use std::sync::Arc;

/// What the model asks for: flat float images, one label per sample.
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

#[test]
fn burns_learner_trains_from_spec_loaders() {
    let digits = load_digits().unwrap();
    let n = digits.len();
    let order = permutation(n, 2026, 0);
    let cut = n * 4 / 5;
    let train = Arc::new(Dataset::new(digits.select(&order[..cut]).unwrap()).unwrap());
    let test = Arc::new(Dataset::new(digits.select(&order[cut..]).unwrap()).unwrap());
    let device = Device::flex().autodiff();

    let schedule = Schedule::builder(train.len())
        .batch_size(32)
        .shuffle(true)
        .seed(7)
        .build()
        .unwrap();
    let train_loader = SpecLoader::<Digits, Input>::new(train, schedule, &device)
        .unwrap()
        .prefetch(2);
    let valid_schedule = Schedule::builder(test.len())
        .batch_size(128)
        .build()
        .unwrap();
    let valid_loader =
        SpecLoader::<Digits, Input>::new(test.clone(), valid_schedule.clone(), &device).unwrap();

    let model = Mlp {
        hidden: LinearConfig::new(64, 64).init(&device),
        out: LinearConfig::new(64, 10).init(&device),
    };
    let dir = std::env::temp_dir().join(format!("batchspec-burn-learner-{}", std::process::id()));
    let training = SupervisedTraining::new(
        &dir,
        Arc::new(train_loader.clone()),
        Arc::new(valid_loader.clone()),
    )
    .num_epochs(6);
    let result = training.launch(Learner::new(model, AdamConfig::new().init(), 2e-3));
    let _ = std::fs::remove_dir_all(&dir);

    // The learner asked the training loader (moved to its device) for one epoch per `iter()`.
    assert_eq!(train_loader.next_epoch(), 6);

    // The trained model, judged on the held-out digits by a plain loop over the same loader.
    let model = result.model;
    let eval = SpecLoader::<Digits, Input>::new(test, valid_schedule, &Device::flex()).unwrap();
    let (mut hits, mut total) = (0usize, 0usize);
    for batch in eval.iter() {
        let batch = batch.unwrap();
        let y: Tensor<1, Int> = batch.y;
        total += y.dims()[0];
        let predicted = model.forward(batch.x).argmax(1).squeeze_dim::<1>(1);
        let h: i64 = predicted.equal(y).int().sum().into_scalar();
        hits += h as usize;
    }
    let accuracy = hits as f64 / total as f64;
    eprintln!("held-out accuracy after 6 epochs with the learner: {accuracy:.4}");
    assert!(accuracy > 0.9, "held-out accuracy {accuracy}");
}
