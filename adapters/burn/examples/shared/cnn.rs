//! What the CNN examples share (`digits_cnn`, `digits_augment`, `digits_folder`, each including
//! this file with `#[path = "shared/cnn.rs"] mod cnn;`): the model, the images and labels it
//! takes from a batch, and its held-out accuracy.

use batchspec::types::MapSpec;
use batchspec_burn::{Tensors, ToBurn};
use burn::data::dataloader::DataLoader;
use burn::module::Module;
use burn::nn::conv::{Conv2d, Conv2dConfig};
use burn::nn::pool::{MaxPool2d, MaxPool2dConfig};
use burn::nn::{Linear, LinearConfig, PaddingConfig2d};
use burn::tensor::activation::relu;
use burn::tensor::{Device, Int, Tensor};

/// Two 3×3 convolutions (16 and 32 channels), a 2×2 max pool and two linear layers: 8×8 grey
/// images to the logits of 10 classes.
#[derive(Module, Debug)]
pub struct Cnn {
    conv1: Conv2d,
    conv2: Conv2d,
    pool: MaxPool2d,
    hidden: Linear,
    out: Linear,
}

impl Cnn {
    pub fn new(device: &Device) -> Self {
        let conv = |i, o| {
            Conv2dConfig::new([i, o], [3, 3])
                .with_padding(PaddingConfig2d::Same)
                .init(device)
        };
        Cnn {
            conv1: conv(1, 16),
            conv2: conv(16, 32),
            pool: MaxPool2dConfig::new([2, 2]).init(),
            hidden: LinearConfig::new(32 * 4 * 4, 64).init(device),
            out: LinearConfig::new(64, 10).init(device),
        }
    }

    /// Logits of a batch of `bchw` 8×8 grey images with pixels in 0..1.
    pub fn forward(&self, image: Tensor<4>) -> Tensor<2> {
        let x = relu(self.conv1.forward(image));
        let x = self.pool.forward(relu(self.conv2.forward(x)));
        let x: Tensor<2> = x.flatten(1, 3);
        self.out.forward(relu(self.hidden.forward(x)))
    }
}

/// A batch's images, as the model takes them (pixels in 0..1), and one label per sample,
/// whatever request they came from.
pub trait Labelled {
    fn parts(self) -> (Tensor<4>, Tensor<1, Int>);
}

/// The held-out accuracy of `model` over every batch of `loader`: generic over the request, bound
/// on the spec traits (any request whose tensor form gives images and labels).
pub fn accuracy<Q>(model: &Cnn, loader: &dyn DataLoader<Tensors<Q>>) -> f64
where
    Q: MapSpec<ToBurn>,
    Tensors<Q>: Labelled,
{
    let (mut correct, mut total) = (0usize, 0usize);
    for batch in loader.iter() {
        let (image, labels) = batch.expect("the held-out batches").parts();
        total += labels.dims()[0];
        let predicted = model.forward(image).argmax(1).squeeze_dim::<1>(1);
        let hits: i64 = predicted.equal(labels).int().sum().into_scalar();
        correct += hits as usize;
    }
    correct as f64 / total as f64
}
