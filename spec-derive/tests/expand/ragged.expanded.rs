// The expansion of tests/expand/ragged.rs; written by `BATCHSPEC_BLESS=1 cargo test`.
// tokens: 2db94e6653d61fd2
// spans: 8ea6e8a74d988f88
#[doc(hidden)]
#[allow(non_camel_case_types, unused_qualifications, clippy::all)]
const _: () = {
    use ::batchspec::__private as __spec_p;
    #[allow(non_snake_case, dead_code)]
    fn __spec_ragged_tokens()
    where
        IndexSeq<50>: __spec_p::SequenceSpace,
    {}
    #[allow(dead_code)]
    fn __spec_fields()
    where
        Ragged<IndexSeq<50>>: __spec_p::SpecField,
    {}
    #[automatically_derived]
    #[diagnostic::do_not_recommend]
    impl<__SpecSrc> __spec_p::Node<__SpecSrc> for Seqs
    where
        for<'__spec_w> Ragged<IndexSeq<50>>: __spec_p::Node<__spec_p::Src<'t'>>,
    {
        type Spaces = (
            <Ragged<IndexSeq<50>> as __spec_p::Node<__spec_p::Src<'t'>>>::Spaces,
        );
        type Sources = (
            <Ragged<IndexSeq<50>> as __spec_p::Node<__spec_p::Src<'t'>>>::Sources,
        );
        type Leaves = <Ragged<
            IndexSeq<50>,
        > as __spec_p::Node<__spec_p::Src<'t'>>>::Leaves;
        type Flat = <Ragged<IndexSeq<50>> as __spec_p::Node<__spec_p::Src<'t'>>>::Flat;
        type FlatRef<'__spec_a> = <Ragged<
            IndexSeq<50>,
        > as __spec_p::Node<__spec_p::Src<'t'>>>::FlatRef<'__spec_a>
        where
            Self: '__spec_a;
        type FlatMut<'__spec_a> = <Ragged<
            IndexSeq<50>,
        > as __spec_p::Node<__spec_p::Src<'t'>>>::FlatMut<'__spec_a>
        where
            Self: '__spec_a;
        type Mapped<__SpecT> = (
            <Ragged<
                IndexSeq<50>,
            > as __spec_p::Node<__spec_p::Src<'t'>>>::Mapped<__SpecT>,
        );
        type Views<'__spec_a> = SeqsMapped<
            <Ragged<
                IndexSeq<50>,
            > as __spec_p::Node<__spec_p::Src<'t'>>>::Views<'__spec_a>,
        >
        where
            Self: '__spec_a;
        const LEAVES: usize = 0
            + <Ragged<IndexSeq<50>> as __spec_p::Node<__spec_p::Src<'t'>>>::LEAVES;
        const TOTAL: __spec_p::core::option::Option<usize> = __spec_p::__add_features(
            <Ragged<IndexSeq<50>> as __spec_p::Node<__spec_p::Src<'t'>>>::TOTAL,
            __spec_p::core::option::Option::Some(0usize),
        );
        fn describe_node(
            __spec_batch: usize,
            __spec_path: &__spec_p::Path<'_>,
            __spec_out: &mut __spec_p::Vec<__spec_p::Described>,
        ) {
            <Ragged<
                IndexSeq<50>,
            > as __spec_p::Node<
                __spec_p::Src<'t'>,
            >>::describe_node(
                __spec_batch,
                &__spec_p::Path::Field(__spec_path, "tokens"),
                __spec_out,
            );
        }
        fn check_node(
            &self,
            __spec_path: &__spec_p::Path<'_>,
            __spec_sizes: &mut __spec_p::SizeCheck,
        ) -> __spec_p::core::result::Result<(), __spec_p::SpecError> {
            <Ragged<
                IndexSeq<50>,
            > as __spec_p::Node<
                __spec_p::Src<'t'>,
            >>::check_node(
                &self.tokens,
                &__spec_p::Path::Field(__spec_path, "tokens"),
                __spec_sizes,
            )?;
            __spec_p::core::result::Result::Ok(())
        }
        #[inline(always)]
        fn node_flatten(self) -> Self::Flat {
            <Ragged<
                IndexSeq<50>,
            > as __spec_p::Node<__spec_p::Src<'t'>>>::node_flatten(self.tokens)
        }
        #[inline(always)]
        fn node_nest(__spec_flat: Self::Flat) -> Self {
            let __spec_part0 = __spec_flat;
            Self {
                tokens: <Ragged<
                    IndexSeq<50>,
                > as __spec_p::Node<__spec_p::Src<'t'>>>::node_nest(__spec_part0),
            }
        }
        #[inline(always)]
        fn node_flatten_ref(&self) -> Self::FlatRef<'_> {
            <Ragged<
                IndexSeq<50>,
            > as __spec_p::Node<__spec_p::Src<'t'>>>::node_flatten_ref(&self.tokens)
        }
        #[inline(always)]
        fn node_flatten_mut(&mut self) -> Self::FlatMut<'_> {
            <Ragged<
                IndexSeq<50>,
            > as __spec_p::Node<__spec_p::Src<'t'>>>::node_flatten_mut(&mut self.tokens)
        }
        fn node_views(
            &self,
            __spec_rows: __spec_p::core::ops::Range<usize>,
        ) -> Self::Views<'_> {
            let _ = &__spec_rows;
            SeqsMapped {
                tokens: <Ragged<
                    IndexSeq<50>,
                > as __spec_p::Node<
                    __spec_p::Src<'t'>,
                >>::node_views(
                    &self.tokens,
                    __spec_p::core::clone::Clone::clone(&__spec_rows),
                ),
            }
        }
        fn node_nest_mapped<__SpecT, __SpecN: __spec_p::core::ops::FnMut() -> __SpecT>(
            __spec_next: &mut __SpecN,
        ) -> Self::Mapped<__SpecT> {
            let _ = &__spec_next;
            (
                <Ragged<
                    IndexSeq<50>,
                > as __spec_p::Node<__spec_p::Src<'t'>>>::node_nest_mapped(__spec_next),
            )
        }
        fn node_flatten_mapped<__SpecT, __SpecV: __spec_p::core::ops::FnMut(__SpecT)>(
            __spec_mapped: Self::Mapped<__SpecT>,
            __spec_visit: &mut __SpecV,
        ) {
            let _ = (&__spec_mapped, &__spec_visit);
            <Ragged<
                IndexSeq<50>,
            > as __spec_p::Node<
                __spec_p::Src<'t'>,
            >>::node_flatten_mapped(__spec_mapped.0, __spec_visit);
        }
    }
    #[automatically_derived]
    impl __spec_p::DataSpec for Seqs
    where
        for<'__spec_w> Ragged<IndexSeq<50>>: __spec_p::Node<__spec_p::Src<'t'>>,
    {}
    impl __spec_p::HasSource<__spec_p::Src<'t'>> for Seqs
    where
        for<'__spec_x> Ragged<IndexSeq<50>>: __spec_p::LeafField,
    {
        type Space = <Ragged<IndexSeq<50>> as __spec_p::LeafField>::Space;
        type Field = Ragged<IndexSeq<50>>;
        #[inline]
        fn source_view(&self) -> __spec_p::SourceView<'_, Self::Space> {
            <Ragged<IndexSeq<50>> as __spec_p::LeafField>::leaf_field_view(&self.tokens)
        }
        #[inline]
        fn source_field(&self) -> &Self::Field {
            &self.tokens
        }
    }
    impl<__SpecF> __spec_p::HasSourceAs<__spec_p::Src<'t'>, __SpecF> for Seqs {
        type Space = <Self as __spec_p::HasSource<__spec_p::Src<'t'>>>::Space;
        type Field = <Self as __spec_p::HasSource<__spec_p::Src<'t'>>>::Field;
        #[inline]
        fn source_view_as(&self) -> __spec_p::SourceView<'_, Self::Space> {
            <Self as __spec_p::HasSource<__spec_p::Src<'t'>>>::source_view(self)
        }
        #[inline]
        fn source_field_as(&self) -> &Self::Field {
            <Self as __spec_p::HasSource<__spec_p::Src<'t'>>>::source_field(self)
        }
    }
    impl __spec_p::FieldSource for Seqs·tokens {
        type Key = __spec_p::Src<'t'>;
        type Family = __spec_p::FamilyOf<Ragged<IndexSeq<50>>>;
    }
    impl<R> __spec_p::ProjectFrom<R> for Seqs
    where
        Seqs·tokens: __spec_p::SourceServedBy<R>,
        <Seqs·tokens as __spec_p::SourceServedBy<
            R,
        >>::Space: __spec_p::LendsAs<
            <Ragged<IndexSeq<50>> as __spec_p::LeafField>::Space,
        >,
        for<'__spec_x> <Seqs·tokens as __spec_p::SourceServedBy<
            R,
        >>::Field: __spec_p::ProjectAs<'__spec_x, Ragged<IndexSeq<50>>>,
    {
        type Views<'__spec_a> = SeqsMapped<
            <<Seqs·tokens as __spec_p::SourceServedBy<
                R,
            >>::Field as __spec_p::ProjectAs<'__spec_a, Ragged<IndexSeq<50>>>>::View,
        >
        where
            R: '__spec_a;
        fn project_rows(
            __spec_record: &R,
            __spec_rows: __spec_p::core::ops::Range<usize>,
        ) -> Self::Views<'_> {
            let _ = (&__spec_record, &__spec_rows);
            SeqsMapped {
                tokens: <<Seqs·tokens as __spec_p::SourceServedBy<
                    R,
                >>::Field as __spec_p::ProjectAs<
                    '_,
                    Ragged<IndexSeq<50>>,
                >>::project(
                    <<Seqs·tokens as __spec_p::SourceServedBy<
                        R,
                    >>::Via as __spec_p::SourceOf<R>>::field(__spec_record),
                    __spec_p::core::clone::Clone::clone(&__spec_rows),
                ),
            }
        }
    }
    impl<R> __spec_p::Reads<R> for Seqs
    where
        for<'__spec_x> Self: __spec_p::DataSpec,
        Seqs·tokens: __spec_p::SourceServedBy<R>,
        <Seqs·tokens as __spec_p::SourceServedBy<
            R,
        >>::Space: __spec_p::FormatAs<
            <Ragged<IndexSeq<50>> as __spec_p::LeafField>::Space,
        >,
    {}
    impl<R> __spec_p::ServeFrom<R> for Seqs
    where
        for<'__spec_x> Self: __spec_p::DataSpec,
        Seqs·tokens: __spec_p::SourceServedBy<R>,
        <Seqs·tokens as __spec_p::SourceServedBy<
            R,
        >>::Space: __spec_p::FormatAs<
            <Ragged<IndexSeq<50>> as __spec_p::LeafField>::Space,
        >,
        for<'__spec_x> Ragged<
            IndexSeq<50>,
        >: __spec_p::FromShared<<Ragged<IndexSeq<50>> as __spec_p::LeafField>::Space>,
    {
        fn serve_from(
            __spec_record: &R,
            __spec_cache: &mut __spec_p::ServeCache,
        ) -> Self {
            let _ = (&__spec_record, &__spec_cache);
            Self {
                tokens: <Ragged<
                    IndexSeq<50>,
                > as __spec_p::FromShared<
                    <Ragged<IndexSeq<50>> as __spec_p::LeafField>::Space,
                >>::from_shared(
                    <__spec_p::LeafVia<
                        __spec_p::Src<'t'>,
                    > as __spec_p::LeafConvert<
                        <Seqs·tokens as __spec_p::SourceServedBy<R>>::Space,
                        <Ragged<IndexSeq<50>> as __spec_p::LeafField>::Space,
                    >>::serve(
                        <<Seqs·tokens as __spec_p::SourceServedBy<
                            R,
                        >>::Via as __spec_p::SourceOf<R>>::view(__spec_record),
                        __spec_cache,
                    ),
                ),
            }
        }
    }
    impl<R> __spec_p::GatherFrom<R> for Seqs
    where
        for<'__spec_x> Self: __spec_p::DataSpec,
        Seqs·tokens: __spec_p::SourceServedBy<R>,
        <Seqs·tokens as __spec_p::SourceServedBy<
            R,
        >>::Space: __spec_p::FormatAs<
            <Ragged<IndexSeq<50>> as __spec_p::LeafField>::Space,
        >,
        for<'__spec_x> Ragged<
            IndexSeq<50>,
        >: __spec_p::GatherInto<<Ragged<IndexSeq<50>> as __spec_p::LeafField>::Space>,
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
            let __spec_collate_tokens = &__spec_p::Collate::DEFAULT;
            <__spec_p::LeafVia<
                __spec_p::Src<'t'>,
            > as __spec_p::LeafConvert<
                <Seqs·tokens as __spec_p::SourceServedBy<R>>::Space,
                <Ragged<IndexSeq<50>> as __spec_p::LeafField>::Space,
            >>::gather(
                <<Seqs·tokens as __spec_p::SourceServedBy<
                    R,
                >>::Via as __spec_p::SourceOf<R>>::view(__spec_record),
                __spec_rows,
                __spec_p::core::clone::Clone::clone(&__spec_zero),
                &mut __spec_out.tokens,
                __spec_collate_tokens,
            )?;
            __spec_p::core::result::Result::Ok(())
        }
        fn check_fits(
            __spec_record: &R,
        ) -> __spec_p::core::result::Result<(), __spec_p::DataError> {
            let _ = &__spec_record;
            let __spec_collate_tokens = &__spec_p::Collate::DEFAULT;
            <__spec_p::LeafVia<
                __spec_p::Src<'t'>,
            > as __spec_p::LeafConvert<
                <Seqs·tokens as __spec_p::SourceServedBy<R>>::Space,
                <Ragged<IndexSeq<50>> as __spec_p::LeafField>::Space,
            >>::fits(
                <<Seqs·tokens as __spec_p::SourceServedBy<
                    R,
                >>::Via as __spec_p::SourceOf<R>>::view(__spec_record),
                __spec_collate_tokens,
            )?;
            __spec_p::core::result::Result::Ok(())
        }
    }
    impl<R> __spec_p::ProvidedBy<R> for Seqs
    where
        for<'__spec_x> Self: __spec_p::DataSpec,
        Self: __spec_p::GatherFrom<R>,
        for<'__spec_x> <Self as __spec_p::Node<()>>::Flat: __spec_p::AllocFlat,
    {}
    impl __spec_p::GatherSame for Seqs
    where
        for<'__spec_x> Ragged<IndexSeq<50>>: __spec_p::GatherSame,
    {
        fn gather_same(
            __spec_out: &mut Self,
            __spec_from: &Self,
            __spec_rows: &[usize],
            __spec_at: usize,
        ) {
            let _ = (&__spec_out, &__spec_from, &__spec_rows, &__spec_at);
            <Ragged<
                IndexSeq<50>,
            > as __spec_p::GatherSame>::gather_same(
                &mut __spec_out.tokens,
                &__spec_from.tokens,
                __spec_rows,
                __spec_at,
            );
        }
    }
    impl __spec_p::LoadRecord for Seqs
    where
        for<'__spec_x> Self: __spec_p::DataSpec,
        for<'__spec_x> Ragged<IndexSeq<50>>: __spec_p::LoadField,
    {
        fn load_record<__SpecL: __spec_p::LeafSource>(
            __spec_source: &mut __SpecL,
            __spec_leaves: &mut __spec_p::core::slice::Iter<'_, __spec_p::Described>,
        ) -> __spec_p::core::result::Result<Self, __SpecL::Error> {
            let _ = (&__spec_source, &__spec_leaves);
            __spec_p::core::result::Result::Ok(Self {
                tokens: <Ragged<
                    IndexSeq<50>,
                > as __spec_p::LoadField>::load_field(__spec_source, __spec_leaves)?,
            })
        }
    }
    impl<R, __SpecK> __spec_p::ReadField<R, __SpecK> for Seqs
    where
        for<'__spec_x> Self: __spec_p::Reads<R>,
    {}
    impl<R, __SpecK> __spec_p::ServeField<R, __SpecK> for Seqs
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
    impl<R, __SpecK> __spec_p::GatherField<R, __SpecK> for Seqs
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
    impl<M: __spec_p::LeafMapper> __spec_p::MapSpec<M> for Seqs
    where
        Ragged<IndexSeq<50>>: __spec_p::MapSpec<M>,
    {
        type Out = SeqsMapped<<Ragged<IndexSeq<50>> as __spec_p::MapSpec<M>>::Out>;
        fn map_spec(
            self,
            __spec_mapper: &mut M,
        ) -> __spec_p::core::result::Result<
            Self::Out,
            <M as __spec_p::LeafMapper>::Error,
        > {
            let _ = &__spec_mapper;
            __spec_p::core::result::Result::Ok(SeqsMapped {
                tokens: <Ragged<
                    IndexSeq<50>,
                > as __spec_p::MapSpec<M>>::map_spec(self.tokens, __spec_mapper)?,
            })
        }
    }
    #[automatically_derived]
    #[diagnostic::do_not_recommend]
    impl __spec_p::NodeMut for Seqs
    where
        for<'__spec_x> Ragged<IndexSeq<50>>: __spec_p::NodeMut,
    {
        type ViewsMut<'__spec_a> = SeqsMapped<
            <Ragged<IndexSeq<50>> as __spec_p::NodeMut>::ViewsMut<'__spec_a>,
        >
        where
            Self: '__spec_a;
        fn node_views_mut(
            &mut self,
            __spec_rows: __spec_p::core::ops::Range<usize>,
        ) -> Self::ViewsMut<'_> {
            let _ = &__spec_rows;
            SeqsMapped {
                tokens: <Ragged<
                    IndexSeq<50>,
                > as __spec_p::NodeMut>::node_views_mut(
                    &mut self.tokens,
                    __spec_p::core::clone::Clone::clone(&__spec_rows),
                ),
            }
        }
    }
};
///The fields of [`Seqs`], each made into something else: one type parameter per field, in field order. Generated by `#[derive(DataSpec)]`; filled with a framework's tensors by `MapSpec::map_spec` (see the `tensors` module of batchspec), with mutable views of some rows by `Dataset::rows_mut` and `Dataset::sample_mut`, and with views of a projection by `Projection::rows`.
#[derive(::core::clone::Clone, ::core::fmt::Debug)]
#[allow(dead_code)]
struct SeqsMapped<Tokens> {
    ///The field `tokens` of [`Seqs`], made into something else (a tensor, a view).
    tokens: Tokens,
}
#[doc(hidden)]
#[allow(dead_code, unreachable_pub, non_camel_case_types)]
enum Seqs·tokens {}
