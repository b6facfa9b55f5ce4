//! Programs that must compile, and run: generic code over records and requests with the bounds
//! the documentation gives, the correct data specs of Pylearn2's document, requests inferred
//! without a turbofish. Each file of `tests/programs/` is a whole program as a user writes one
//! (`use batchspec::..`, a `main`), included here as a module whose test calls its `main`.
//!
//! They were trybuild's `pass` cases; as ordinary code they compile with the test build instead
//! of each in a crate of its own (trybuild builds a suite with a pass case one case at a time,
//! each after a `cargo clean` of its package, and would build the dependencies a second time
//! beside the compile-fail checks).

mod generic_provider {
    include!("programs/generic-provider.rs");

    #[test]
    fn compiles_and_runs() {
        main();
    }
}

mod generic_trainer_and_stream {
    include!("programs/generic-trainer-and-stream.rs");

    #[test]
    fn compiles_and_runs() -> Result<(), batchspec::Error> {
        main()
    }
}

mod nested_request_flat_record {
    include!("programs/nested-request-flat-record.rs");

    #[test]
    fn compiles_and_runs() {
        main();
    }
}

mod pylearn2_correct_data_specs {
    include!("programs/pylearn2-correct-data-specs.rs");

    #[test]
    fn compiles_and_runs() {
        main();
    }
}

mod requests_inferred {
    include!("programs/requests-inferred.rs");

    #[test]
    fn compiles_and_runs() -> Result<(), batchspec::Error> {
        main()
    }
}

mod source_in_two_fields_of_two_kinds {
    include!("programs/source-in-two-fields-of-two-kinds.rs");

    #[test]
    fn compiles_and_runs() {
        main();
    }
}
