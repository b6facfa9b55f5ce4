// A record holding ragged sequences: the check that the space is a sequence space.
#[derive(DataSpec)]
struct Seqs {
    #[spec(source = "t")]
    tokens: Ragged<IndexSeq<50>>,
}
