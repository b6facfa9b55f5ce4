// The expansion of tests/expand/collate.rs; written by `BATCHSPEC_BLESS=1 cargo test`.
// tokens: 46526a0d576c3cfd
// spans: bd208478c7aebec3
#[doc(hidden)]
#[allow(non_camel_case_types, unused_qualifications, clippy::all)]
const _: () = {
    use ::batchspec::__private as __spec_p;
    #[allow(dead_code)]
    fn __spec_fields()
    where
        Batch<IndexSeq<50>>: __spec_p::SpecField,
        Batch<Lengths>: __spec_p::SpecField,
        Batch<Mask>: __spec_p::SpecField,
    {}
    #[automatically_derived]
    #[diagnostic::do_not_recommend]
    impl<__SpecSrc> __spec_p::Node<__SpecSrc> for Padded
    where
        for<'__spec_w> Batch<IndexSeq<50>>: __spec_p::Node<__spec_p::Src<'t'>>,
        for<'__spec_w> Batch<Lengths>: __spec_p::Node<__spec_p::Src<'t'>>,
        for<'__spec_w> Batch<Mask>: __spec_p::Node<__spec_p::Src<'t'>>,
    {
        type Spaces = (
            <Batch<IndexSeq<50>> as __spec_p::Node<__spec_p::Src<'t'>>>::Spaces,
            <Batch<Lengths> as __spec_p::Node<__spec_p::Src<'t'>>>::Spaces,
            <Batch<Mask> as __spec_p::Node<__spec_p::Src<'t'>>>::Spaces,
        );
        type Sources = (
            <Batch<IndexSeq<50>> as __spec_p::Node<__spec_p::Src<'t'>>>::Sources,
            <Batch<Lengths> as __spec_p::Node<__spec_p::Src<'t'>>>::Sources,
            <Batch<Mask> as __spec_p::Node<__spec_p::Src<'t'>>>::Sources,
        );
        type Leaves = __spec_p::LeafPair<
            <Batch<IndexSeq<50>> as __spec_p::Node<__spec_p::Src<'t'>>>::Leaves,
            __spec_p::LeafPair<
                <Batch<Lengths> as __spec_p::Node<__spec_p::Src<'t'>>>::Leaves,
                <Batch<Mask> as __spec_p::Node<__spec_p::Src<'t'>>>::Leaves,
            >,
        >;
        type Flat = __spec_p::Pair<
            <Batch<IndexSeq<50>> as __spec_p::Node<__spec_p::Src<'t'>>>::Flat,
            __spec_p::Pair<
                <Batch<Lengths> as __spec_p::Node<__spec_p::Src<'t'>>>::Flat,
                <Batch<Mask> as __spec_p::Node<__spec_p::Src<'t'>>>::Flat,
            >,
        >;
        type FlatRef<'__spec_a> = __spec_p::Pair<
            <Batch<
                IndexSeq<50>,
            > as __spec_p::Node<__spec_p::Src<'t'>>>::FlatRef<'__spec_a>,
            __spec_p::Pair<
                <Batch<
                    Lengths,
                > as __spec_p::Node<__spec_p::Src<'t'>>>::FlatRef<'__spec_a>,
                <Batch<Mask> as __spec_p::Node<__spec_p::Src<'t'>>>::FlatRef<'__spec_a>,
            >,
        >
        where
            Self: '__spec_a;
        type FlatMut<'__spec_a> = __spec_p::Pair<
            <Batch<
                IndexSeq<50>,
            > as __spec_p::Node<__spec_p::Src<'t'>>>::FlatMut<'__spec_a>,
            __spec_p::Pair<
                <Batch<
                    Lengths,
                > as __spec_p::Node<__spec_p::Src<'t'>>>::FlatMut<'__spec_a>,
                <Batch<Mask> as __spec_p::Node<__spec_p::Src<'t'>>>::FlatMut<'__spec_a>,
            >,
        >
        where
            Self: '__spec_a;
        type Mapped<__SpecT> = (
            <Batch<IndexSeq<50>> as __spec_p::Node<__spec_p::Src<'t'>>>::Mapped<__SpecT>,
            <Batch<Lengths> as __spec_p::Node<__spec_p::Src<'t'>>>::Mapped<__SpecT>,
            <Batch<Mask> as __spec_p::Node<__spec_p::Src<'t'>>>::Mapped<__SpecT>,
        );
        type Views<'__spec_a> = PaddedMapped<
            <Batch<
                IndexSeq<50>,
            > as __spec_p::Node<__spec_p::Src<'t'>>>::Views<'__spec_a>,
            <Batch<Lengths> as __spec_p::Node<__spec_p::Src<'t'>>>::Views<'__spec_a>,
            <Batch<Mask> as __spec_p::Node<__spec_p::Src<'t'>>>::Views<'__spec_a>,
        >
        where
            Self: '__spec_a;
        const LEAVES: usize = 0
            + <Batch<IndexSeq<50>> as __spec_p::Node<__spec_p::Src<'t'>>>::LEAVES
            + <Batch<Lengths> as __spec_p::Node<__spec_p::Src<'t'>>>::LEAVES
            + <Batch<Mask> as __spec_p::Node<__spec_p::Src<'t'>>>::LEAVES;
        const TOTAL: __spec_p::core::option::Option<usize> = __spec_p::__add_features(
            <Batch<IndexSeq<50>> as __spec_p::Node<__spec_p::Src<'t'>>>::TOTAL,
            __spec_p::__add_features(
                <Batch<Lengths> as __spec_p::Node<__spec_p::Src<'t'>>>::TOTAL,
                __spec_p::__add_features(
                    <Batch<Mask> as __spec_p::Node<__spec_p::Src<'t'>>>::TOTAL,
                    __spec_p::core::option::Option::Some(0usize),
                ),
            ),
        );
        fn describe_node(
            __spec_batch: usize,
            __spec_path: &__spec_p::Path<'_>,
            __spec_out: &mut __spec_p::Vec<__spec_p::Described>,
        ) {
            <Batch<
                IndexSeq<50>,
            > as __spec_p::Node<
                __spec_p::Src<'t'>,
            >>::describe_node(
                __spec_batch,
                &__spec_p::Path::Field(__spec_path, "tokens"),
                __spec_out,
            );
            <Batch<
                Lengths,
            > as __spec_p::Node<
                __spec_p::Src<'t'>,
            >>::describe_node(
                __spec_batch,
                &__spec_p::Path::Field(__spec_path, "len"),
                __spec_out,
            );
            <Batch<
                Mask,
            > as __spec_p::Node<
                __spec_p::Src<'t'>,
            >>::describe_node(
                __spec_batch,
                &__spec_p::Path::Field(__spec_path, "mask"),
                __spec_out,
            );
        }
        fn check_node(
            &self,
            __spec_path: &__spec_p::Path<'_>,
            __spec_sizes: &mut __spec_p::SizeCheck,
        ) -> __spec_p::core::result::Result<(), __spec_p::SpecError> {
            <Batch<
                IndexSeq<50>,
            > as __spec_p::Node<
                __spec_p::Src<'t'>,
            >>::check_node(
                &self.tokens,
                &__spec_p::Path::Field(__spec_path, "tokens"),
                __spec_sizes,
            )?;
            <Batch<
                Lengths,
            > as __spec_p::Node<
                __spec_p::Src<'t'>,
            >>::check_node(
                &self.len,
                &__spec_p::Path::Field(__spec_path, "len"),
                __spec_sizes,
            )?;
            <Batch<
                Mask,
            > as __spec_p::Node<
                __spec_p::Src<'t'>,
            >>::check_node(
                &self.mask,
                &__spec_p::Path::Field(__spec_path, "mask"),
                __spec_sizes,
            )?;
            __spec_p::core::result::Result::Ok(())
        }
        #[inline(always)]
        fn node_flatten(self) -> Self::Flat {
            __spec_p::Pair {
                first: <Batch<
                    IndexSeq<50>,
                > as __spec_p::Node<__spec_p::Src<'t'>>>::node_flatten(self.tokens),
                second: __spec_p::Pair {
                    first: <Batch<
                        Lengths,
                    > as __spec_p::Node<__spec_p::Src<'t'>>>::node_flatten(self.len),
                    second: <Batch<
                        Mask,
                    > as __spec_p::Node<__spec_p::Src<'t'>>>::node_flatten(self.mask),
                },
            }
        }
        #[inline(always)]
        fn node_nest(__spec_flat: Self::Flat) -> Self {
            let __spec_p::Pair {
                first: __spec_part0,
                second: __spec_p::Pair { first: __spec_part1, second: __spec_part2 },
            } = __spec_flat;
            Self {
                tokens: <Batch<
                    IndexSeq<50>,
                > as __spec_p::Node<__spec_p::Src<'t'>>>::node_nest(__spec_part0),
                len: <Batch<
                    Lengths,
                > as __spec_p::Node<__spec_p::Src<'t'>>>::node_nest(__spec_part1),
                mask: <Batch<
                    Mask,
                > as __spec_p::Node<__spec_p::Src<'t'>>>::node_nest(__spec_part2),
            }
        }
        #[inline(always)]
        fn node_flatten_ref(&self) -> Self::FlatRef<'_> {
            __spec_p::Pair {
                first: <Batch<
                    IndexSeq<50>,
                > as __spec_p::Node<__spec_p::Src<'t'>>>::node_flatten_ref(&self.tokens),
                second: __spec_p::Pair {
                    first: <Batch<
                        Lengths,
                    > as __spec_p::Node<
                        __spec_p::Src<'t'>,
                    >>::node_flatten_ref(&self.len),
                    second: <Batch<
                        Mask,
                    > as __spec_p::Node<
                        __spec_p::Src<'t'>,
                    >>::node_flatten_ref(&self.mask),
                },
            }
        }
        #[inline(always)]
        fn node_flatten_mut(&mut self) -> Self::FlatMut<'_> {
            __spec_p::Pair {
                first: <Batch<
                    IndexSeq<50>,
                > as __spec_p::Node<
                    __spec_p::Src<'t'>,
                >>::node_flatten_mut(&mut self.tokens),
                second: __spec_p::Pair {
                    first: <Batch<
                        Lengths,
                    > as __spec_p::Node<
                        __spec_p::Src<'t'>,
                    >>::node_flatten_mut(&mut self.len),
                    second: <Batch<
                        Mask,
                    > as __spec_p::Node<
                        __spec_p::Src<'t'>,
                    >>::node_flatten_mut(&mut self.mask),
                },
            }
        }
        fn node_views(
            &self,
            __spec_rows: __spec_p::core::ops::Range<usize>,
        ) -> Self::Views<'_> {
            let _ = &__spec_rows;
            PaddedMapped {
                tokens: <Batch<
                    IndexSeq<50>,
                > as __spec_p::Node<
                    __spec_p::Src<'t'>,
                >>::node_views(
                    &self.tokens,
                    __spec_p::core::clone::Clone::clone(&__spec_rows),
                ),
                len: <Batch<
                    Lengths,
                > as __spec_p::Node<
                    __spec_p::Src<'t'>,
                >>::node_views(
                    &self.len,
                    __spec_p::core::clone::Clone::clone(&__spec_rows),
                ),
                mask: <Batch<
                    Mask,
                > as __spec_p::Node<
                    __spec_p::Src<'t'>,
                >>::node_views(
                    &self.mask,
                    __spec_p::core::clone::Clone::clone(&__spec_rows),
                ),
            }
        }
        fn node_nest_mapped<__SpecT, __SpecN: __spec_p::core::ops::FnMut() -> __SpecT>(
            __spec_next: &mut __SpecN,
        ) -> Self::Mapped<__SpecT> {
            let _ = &__spec_next;
            (
                <Batch<
                    IndexSeq<50>,
                > as __spec_p::Node<__spec_p::Src<'t'>>>::node_nest_mapped(__spec_next),
                <Batch<
                    Lengths,
                > as __spec_p::Node<__spec_p::Src<'t'>>>::node_nest_mapped(__spec_next),
                <Batch<
                    Mask,
                > as __spec_p::Node<__spec_p::Src<'t'>>>::node_nest_mapped(__spec_next),
            )
        }
        fn node_flatten_mapped<__SpecT, __SpecV: __spec_p::core::ops::FnMut(__SpecT)>(
            __spec_mapped: Self::Mapped<__SpecT>,
            __spec_visit: &mut __SpecV,
        ) {
            let _ = (&__spec_mapped, &__spec_visit);
            <Batch<
                IndexSeq<50>,
            > as __spec_p::Node<
                __spec_p::Src<'t'>,
            >>::node_flatten_mapped(__spec_mapped.0, __spec_visit);
            <Batch<
                Lengths,
            > as __spec_p::Node<
                __spec_p::Src<'t'>,
            >>::node_flatten_mapped(__spec_mapped.1, __spec_visit);
            <Batch<
                Mask,
            > as __spec_p::Node<
                __spec_p::Src<'t'>,
            >>::node_flatten_mapped(__spec_mapped.2, __spec_visit);
        }
    }
    #[automatically_derived]
    impl __spec_p::DataSpec for Padded
    where
        for<'__spec_w> Batch<IndexSeq<50>>: __spec_p::Node<__spec_p::Src<'t'>>,
        for<'__spec_w> Batch<Lengths>: __spec_p::Node<__spec_p::Src<'t'>>,
        for<'__spec_w> Batch<Mask>: __spec_p::Node<__spec_p::Src<'t'>>,
    {}
    impl __spec_p::FieldSource for Padded·tokens {
        type Key = __spec_p::Src<'t'>;
        type Family = __spec_p::FamilyOf<Batch<IndexSeq<50>>>;
    }
    #[allow(non_snake_case, dead_code)]
    fn __spec_padded_tokens()
    where
        <Batch<IndexSeq<50>> as __spec_p::LeafField>::Space: __spec_p::Padded,
    {}
    impl __spec_p::FieldSource for Padded·len {
        type Key = __spec_p::Src<'t'>;
        type Family = __spec_p::FamilyOf<Batch<Lengths>>;
    }
    impl __spec_p::FieldSource for Padded·mask {
        type Key = __spec_p::Src<'t'>;
        type Family = __spec_p::FamilyOf<Batch<Mask>>;
    }
    impl<R> __spec_p::ProjectFrom<R> for Padded
    where
        Padded·tokens: __spec_p::SourceServedBy<R>,
        <Padded·tokens as __spec_p::SourceServedBy<
            R,
        >>::Space: __spec_p::LendsAs<
            <Batch<IndexSeq<50>> as __spec_p::LeafField>::Space,
        >,
        for<'__spec_x> <Padded·tokens as __spec_p::SourceServedBy<
            R,
        >>::Field: __spec_p::ProjectAs<'__spec_x, Batch<IndexSeq<50>>>,
        Padded·len: __spec_p::LentByProjection<R>,
        Padded·mask: __spec_p::LentByProjection<R>,
    {
        type Views<'__spec_a> = PaddedMapped<
            <<Padded·tokens as __spec_p::SourceServedBy<
                R,
            >>::Field as __spec_p::ProjectAs<'__spec_a, Batch<IndexSeq<50>>>>::View,
            <Padded·len as __spec_p::LentByProjection<R>>::View,
            <Padded·mask as __spec_p::LentByProjection<R>>::View,
        >
        where
            R: '__spec_a;
        fn project_rows(
            __spec_record: &R,
            __spec_rows: __spec_p::core::ops::Range<usize>,
        ) -> Self::Views<'_> {
            let _ = (&__spec_record, &__spec_rows);
            PaddedMapped {
                tokens: <<Padded·tokens as __spec_p::SourceServedBy<
                    R,
                >>::Field as __spec_p::ProjectAs<
                    '_,
                    Batch<IndexSeq<50>>,
                >>::project(
                    <<Padded·tokens as __spec_p::SourceServedBy<
                        R,
                    >>::Via as __spec_p::SourceOf<R>>::field(__spec_record),
                    __spec_p::core::clone::Clone::clone(&__spec_rows),
                ),
                len: <Padded·len as __spec_p::LentByProjection<R>>::lend(),
                mask: <Padded·mask as __spec_p::LentByProjection<R>>::lend(),
            }
        }
    }
    impl<R> __spec_p::Reads<R> for Padded
    where
        for<'__spec_x> Self: __spec_p::DataSpec,
        Padded·tokens: __spec_p::SourceServedBy<R>,
        <Padded·tokens as __spec_p::SourceServedBy<
            R,
        >>::Space: __spec_p::FormatAs<
            <Batch<IndexSeq<50>> as __spec_p::LeafField>::Space,
        >,
        Padded·len: __spec_p::SourceServedBy<R>,
        Padded·len: __spec_p::StepsOfSequences<
            R,
            <Padded·len as __spec_p::SourceServedBy<R>>::Space,
        >,
        Padded·mask: __spec_p::SourceServedBy<R>,
        Padded·mask: __spec_p::StepsOfSequences<
            R,
            <Padded·mask as __spec_p::SourceServedBy<R>>::Space,
        >,
    {}
    impl<R> __spec_p::ServeFrom<R> for Padded
    where
        for<'__spec_x> Self: __spec_p::DataSpec,
        Padded·tokens: __spec_p::SourceServedBy<R>,
        <Padded·tokens as __spec_p::SourceServedBy<
            R,
        >>::Space: __spec_p::FormatAs<
            <Batch<IndexSeq<50>> as __spec_p::LeafField>::Space,
        >,
        Padded·tokens: __spec_p::ServedWhole<R>,
        Padded·len: __spec_p::SourceServedBy<R>,
        Padded·len: __spec_p::StepsOfSequences<
            R,
            <Padded·len as __spec_p::SourceServedBy<R>>::Space,
        >,
        Padded·len: __spec_p::ServedWhole<R>,
        Padded·mask: __spec_p::SourceServedBy<R>,
        Padded·mask: __spec_p::StepsOfSequences<
            R,
            <Padded·mask as __spec_p::SourceServedBy<R>>::Space,
        >,
        Padded·mask: __spec_p::ServedWhole<R>,
    {
        fn serve_from(
            __spec_record: &R,
            __spec_cache: &mut __spec_p::ServeCache,
        ) -> Self {
            let _ = (&__spec_record, &__spec_cache);
            Self {
                tokens: <Padded·tokens as __spec_p::ServedWhole<
                    R,
                >>::serve_value::<Batch<IndexSeq<50>>>(),
                len: <Padded·len as __spec_p::ServedWhole<
                    R,
                >>::serve_value::<Batch<Lengths>>(),
                mask: <Padded·mask as __spec_p::ServedWhole<
                    R,
                >>::serve_value::<Batch<Mask>>(),
            }
        }
    }
    impl<R> __spec_p::GatherFrom<R> for Padded
    where
        for<'__spec_x> Self: __spec_p::DataSpec,
        Padded·tokens: __spec_p::SourceServedBy<R>,
        <Padded·tokens as __spec_p::SourceServedBy<
            R,
        >>::Space: __spec_p::FormatAs<
            <Batch<IndexSeq<50>> as __spec_p::LeafField>::Space,
        >,
        for<'__spec_x> Batch<
            IndexSeq<50>,
        >: __spec_p::GatherInto<<Batch<IndexSeq<50>> as __spec_p::LeafField>::Space>,
        Padded·len: __spec_p::SourceServedBy<R>,
        Padded·len: __spec_p::StepsOfSequences<
            R,
            <Padded·len as __spec_p::SourceServedBy<R>>::Space,
        >,
        for<'__spec_x> Batch<Lengths>: __spec_p::GatherSteps,
        Padded·mask: __spec_p::SourceServedBy<R>,
        Padded·mask: __spec_p::StepsOfSequences<
            R,
            <Padded·mask as __spec_p::SourceServedBy<R>>::Space,
        >,
        for<'__spec_x> Batch<Mask>: __spec_p::GatherSteps,
    {
        fn gather_from(
            __spec_out: &mut Self,
            __spec_record: &R,
            __spec_rows: &[usize],
            __spec_zero: __spec_p::core::ops::Range<usize>,
            __spec_draws: __spec_p::Draws<'_>,
        ) -> __spec_p::core::result::Result<(), __spec_p::DataError> {
            let _ = (
                &__spec_out,
                &__spec_record,
                &__spec_rows,
                &__spec_zero,
                &__spec_draws,
            );
            let __spec_collate_tokens = &__spec_p::Collate::<
                <<Batch<
                    IndexSeq<50>,
                > as __spec_p::LeafField>::Space as __spec_p::Space>::Elem,
            > {
                pad: 0,
                steps: __spec_p::core::option::Option::Some(8usize),
                truncate: true,
            };
            <__spec_p::LeafVia<
                __spec_p::Src<'t'>,
            > as __spec_p::LeafConvert<
                <Padded·tokens as __spec_p::SourceServedBy<R>>::Space,
                <Batch<IndexSeq<50>> as __spec_p::LeafField>::Space,
            >>::gather(
                <<Padded·tokens as __spec_p::SourceServedBy<
                    R,
                >>::Via as __spec_p::SourceOf<R>>::view(__spec_record),
                __spec_rows,
                __spec_p::core::clone::Clone::clone(&__spec_zero),
                &mut __spec_out.tokens,
                __spec_collate_tokens,
            )?;
            __spec_p::GatherSteps::gather_steps::<
                <Padded·len as __spec_p::SourceServedBy<R>>::Space,
            >(
                &mut __spec_out.len,
                <<Padded·len as __spec_p::SourceServedBy<
                    R,
                >>::Via as __spec_p::SourceOf<R>>::view(__spec_record),
                __spec_rows,
                __spec_rows.len().max(__spec_zero.end),
                __spec_p::core::option::Option::Some(8usize),
                true,
                <__spec_p::Src<'t'> as __spec_p::Source>::NAME,
            )?;
            __spec_p::GatherSteps::gather_steps::<
                <Padded·mask as __spec_p::SourceServedBy<R>>::Space,
            >(
                &mut __spec_out.mask,
                <<Padded·mask as __spec_p::SourceServedBy<
                    R,
                >>::Via as __spec_p::SourceOf<R>>::view(__spec_record),
                __spec_rows,
                __spec_rows.len().max(__spec_zero.end),
                __spec_p::core::option::Option::Some(8usize),
                true,
                <__spec_p::Src<'t'> as __spec_p::Source>::NAME,
            )?;
            __spec_p::core::result::Result::Ok(())
        }
        fn check_fits(
            __spec_record: &R,
        ) -> __spec_p::core::result::Result<(), __spec_p::DataError> {
            let _ = &__spec_record;
            let __spec_collate_tokens = &__spec_p::Collate::<
                <<Batch<
                    IndexSeq<50>,
                > as __spec_p::LeafField>::Space as __spec_p::Space>::Elem,
            > {
                pad: 0,
                steps: __spec_p::core::option::Option::Some(8usize),
                truncate: true,
            };
            <__spec_p::LeafVia<
                __spec_p::Src<'t'>,
            > as __spec_p::LeafConvert<
                <Padded·tokens as __spec_p::SourceServedBy<R>>::Space,
                <Batch<IndexSeq<50>> as __spec_p::LeafField>::Space,
            >>::fits(
                <<Padded·tokens as __spec_p::SourceServedBy<
                    R,
                >>::Via as __spec_p::SourceOf<R>>::view(__spec_record),
                __spec_collate_tokens,
            )?;
            <Batch<
                Lengths,
            > as __spec_p::GatherSteps>::steps_fit::<
                <Padded·len as __spec_p::SourceServedBy<R>>::Space,
            >(
                &<<Padded·len as __spec_p::SourceServedBy<
                    R,
                >>::Via as __spec_p::SourceOf<R>>::view(__spec_record),
                __spec_p::core::option::Option::Some(8usize),
                true,
                <__spec_p::Src<'t'> as __spec_p::Source>::NAME,
            )?;
            <Batch<
                Mask,
            > as __spec_p::GatherSteps>::steps_fit::<
                <Padded·mask as __spec_p::SourceServedBy<R>>::Space,
            >(
                &<<Padded·mask as __spec_p::SourceServedBy<
                    R,
                >>::Via as __spec_p::SourceOf<R>>::view(__spec_record),
                __spec_p::core::option::Option::Some(8usize),
                true,
                <__spec_p::Src<'t'> as __spec_p::Source>::NAME,
            )?;
            __spec_p::core::result::Result::Ok(())
        }
    }
    impl<R> __spec_p::ProvidedBy<R> for Padded
    where
        for<'__spec_x> Self: __spec_p::DataSpec,
        Self: __spec_p::GatherFrom<R>,
        for<'__spec_x> <Self as __spec_p::Node<()>>::Flat: __spec_p::AllocFlat,
    {}
    impl __spec_p::GatherSame for Padded
    where
        for<'__spec_x> Batch<IndexSeq<50>>: __spec_p::GatherSame,
        for<'__spec_x> Batch<Lengths>: __spec_p::GatherSame,
        for<'__spec_x> Batch<Mask>: __spec_p::GatherSame,
    {
        fn gather_same(
            __spec_out: &mut Self,
            __spec_from: &Self,
            __spec_rows: &[usize],
            __spec_at: usize,
        ) {
            let _ = (&__spec_out, &__spec_from, &__spec_rows, &__spec_at);
            <Batch<
                IndexSeq<50>,
            > as __spec_p::GatherSame>::gather_same(
                &mut __spec_out.tokens,
                &__spec_from.tokens,
                __spec_rows,
                __spec_at,
            );
            <Batch<
                Lengths,
            > as __spec_p::GatherSame>::gather_same(
                &mut __spec_out.len,
                &__spec_from.len,
                __spec_rows,
                __spec_at,
            );
            <Batch<
                Mask,
            > as __spec_p::GatherSame>::gather_same(
                &mut __spec_out.mask,
                &__spec_from.mask,
                __spec_rows,
                __spec_at,
            );
        }
    }
    impl __spec_p::LoadRecord for Padded
    where
        for<'__spec_x> Self: __spec_p::DataSpec,
        for<'__spec_x> Batch<IndexSeq<50>>: __spec_p::LoadField,
        for<'__spec_x> Padded·len: __spec_p::LoadedFromFile,
        for<'__spec_x> Batch<Lengths>: __spec_p::LoadField,
        for<'__spec_x> Padded·mask: __spec_p::LoadedFromFile,
        for<'__spec_x> Batch<Mask>: __spec_p::LoadField,
    {
        fn load_record<__SpecL: __spec_p::LeafSource>(
            __spec_source: &mut __SpecL,
            __spec_leaves: &mut __spec_p::core::slice::Iter<'_, __spec_p::Described>,
        ) -> __spec_p::core::result::Result<Self, __SpecL::Error> {
            let _ = (&__spec_source, &__spec_leaves);
            __spec_p::core::result::Result::Ok(Self {
                tokens: <Batch<
                    IndexSeq<50>,
                > as __spec_p::LoadField>::load_field(__spec_source, __spec_leaves)?,
                len: <Batch<
                    Lengths,
                > as __spec_p::LoadField>::load_field(__spec_source, __spec_leaves)?,
                mask: <Batch<
                    Mask,
                > as __spec_p::LoadField>::load_field(__spec_source, __spec_leaves)?,
            })
        }
    }
    impl<R, __SpecK> __spec_p::ReadField<R, __SpecK> for Padded
    where
        for<'__spec_x> Self: __spec_p::Reads<R>,
    {}
    impl<R, __SpecK> __spec_p::ServeField<R, __SpecK> for Padded
    where
        for<'__spec_x> Self: __spec_p::ServeFrom<R>,
    {
        fn serve_field(
            __spec_record: &R,
            __spec_cache: &mut __spec_p::ServeCache,
        ) -> Self {
            <Self as __spec_p::ServeFrom<R>>::serve_from(__spec_record, __spec_cache)
        }
    }
    impl<R, __SpecK> __spec_p::GatherField<R, __SpecK> for Padded
    where
        for<'__spec_x> Self: __spec_p::GatherFrom<R>,
    {
        fn gather_field(
            &mut self,
            __spec_record: &R,
            __spec_rows: &[usize],
            __spec_zero: __spec_p::core::ops::Range<usize>,
            __spec_draws: __spec_p::Draws<'_>,
        ) -> __spec_p::core::result::Result<(), __spec_p::DataError> {
            <Self as __spec_p::GatherFrom<
                R,
            >>::gather_from(self, __spec_record, __spec_rows, __spec_zero, __spec_draws)
        }
        fn check_field(
            __spec_record: &R,
        ) -> __spec_p::core::result::Result<(), __spec_p::DataError> {
            <Self as __spec_p::GatherFrom<R>>::check_fits(__spec_record)
        }
    }
    #[automatically_derived]
    impl<M: __spec_p::LeafMapper> __spec_p::MapSpec<M> for Padded
    where
        Batch<IndexSeq<50>>: __spec_p::MapSpec<M>,
        Batch<Lengths>: __spec_p::MapSpec<M>,
        Batch<Mask>: __spec_p::MapSpec<M>,
    {
        type Out = PaddedMapped<
            <Batch<IndexSeq<50>> as __spec_p::MapSpec<M>>::Out,
            <Batch<Lengths> as __spec_p::MapSpec<M>>::Out,
            <Batch<Mask> as __spec_p::MapSpec<M>>::Out,
        >;
        fn map_spec(
            self,
            __spec_mapper: &mut M,
        ) -> __spec_p::core::result::Result<
            Self::Out,
            <M as __spec_p::LeafMapper>::Error,
        > {
            let _ = &__spec_mapper;
            __spec_p::core::result::Result::Ok(PaddedMapped {
                tokens: <Batch<
                    IndexSeq<50>,
                > as __spec_p::MapSpec<M>>::map_spec(self.tokens, __spec_mapper)?,
                len: <Batch<
                    Lengths,
                > as __spec_p::MapSpec<M>>::map_spec(self.len, __spec_mapper)?,
                mask: <Batch<
                    Mask,
                > as __spec_p::MapSpec<M>>::map_spec(self.mask, __spec_mapper)?,
            })
        }
    }
    #[automatically_derived]
    #[diagnostic::do_not_recommend]
    impl __spec_p::NodeMut for Padded
    where
        for<'__spec_x> Batch<IndexSeq<50>>: __spec_p::NodeMut,
        for<'__spec_x> Batch<Lengths>: __spec_p::NodeMut,
        for<'__spec_x> Batch<Mask>: __spec_p::NodeMut,
    {
        type ViewsMut<'__spec_a> = PaddedMapped<
            <Batch<IndexSeq<50>> as __spec_p::NodeMut>::ViewsMut<'__spec_a>,
            <Batch<Lengths> as __spec_p::NodeMut>::ViewsMut<'__spec_a>,
            <Batch<Mask> as __spec_p::NodeMut>::ViewsMut<'__spec_a>,
        >
        where
            Self: '__spec_a;
        fn node_views_mut(
            &mut self,
            __spec_rows: __spec_p::core::ops::Range<usize>,
        ) -> Self::ViewsMut<'_> {
            let _ = &__spec_rows;
            PaddedMapped {
                tokens: <Batch<
                    IndexSeq<50>,
                > as __spec_p::NodeMut>::node_views_mut(
                    &mut self.tokens,
                    __spec_p::core::clone::Clone::clone(&__spec_rows),
                ),
                len: <Batch<
                    Lengths,
                > as __spec_p::NodeMut>::node_views_mut(
                    &mut self.len,
                    __spec_p::core::clone::Clone::clone(&__spec_rows),
                ),
                mask: <Batch<
                    Mask,
                > as __spec_p::NodeMut>::node_views_mut(
                    &mut self.mask,
                    __spec_p::core::clone::Clone::clone(&__spec_rows),
                ),
            }
        }
    }
};
///The fields of [`Padded`], each made into something else: one type parameter per field, in field order. Generated by `#[derive(DataSpec)]`; filled with a framework's tensors by `MapSpec::map_spec` (see the `tensors` module of batchspec), with mutable views of some rows by `Dataset::rows_mut` and `Dataset::sample_mut`, and with views of a projection by `Projection::rows`.
#[derive(::core::clone::Clone, ::core::fmt::Debug)]
#[allow(dead_code)]
struct PaddedMapped<Tokens, Len, Mask> {
    ///The field `tokens` of [`Padded`], made into something else (a tensor, a view).
    tokens: Tokens,
    ///The field `len` of [`Padded`], made into something else (a tensor, a view).
    len: Len,
    ///The field `mask` of [`Padded`], made into something else (a tensor, a view).
    mask: Mask,
}
#[doc(hidden)]
#[allow(dead_code, unreachable_pub, non_camel_case_types)]
enum Padded·tokens {}
#[doc(hidden)]
#[allow(dead_code, unreachable_pub, non_camel_case_types)]
enum Padded·len {}
#[doc(hidden)]
#[allow(dead_code, unreachable_pub, non_camel_case_types)]
enum Padded·mask {}
