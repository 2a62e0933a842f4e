//! A derive macro: `describe()` returns the type's name and field count.
use proc_macro::TokenStream;
use quote::quote;
use syn::{parse_macro_input, Data, DeriveInput};

#[proc_macro_derive(Describe)]
pub fn derive_describe(input: TokenStream) -> TokenStream {
    let ast = parse_macro_input!(input as DeriveInput);
    let name = &ast.ident;
    let fields = match &ast.data {
        Data::Struct(s) => s.fields.len(),
        _ => 0,
    };
    let text = name.to_string();
    quote! {
        impl #name {
            pub fn describe() -> (&'static str, usize) { (#text, #fields) }
        }
    }
    .into()
}
