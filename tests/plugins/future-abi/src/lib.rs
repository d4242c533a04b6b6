//! A plugin built for `distill:plugin@9.0.0`, a version no host supports. The
//! host must refuse it with a message naming the versions it does support.

// Raw wit-bindgen exports only link as a wasm component; natively the crate is empty.
#![cfg(target_arch = "wasm32")]

wit_bindgen::generate!({
    inline: r#"
        package distill:plugin@9.0.0;
        interface render {
            info: func() -> string;
            render: func(format: string, page: string, options: string) -> result<string, string>;
        }
        world format { export render; }
    "#,
});

struct Future;

impl exports::distill::plugin::render::Guest for Future {
    fn info() -> String {
        "future".into()
    }
    fn render(_format: String, _page: String, _options: String) -> Result<String, String> {
        Ok("\"from the future\"".into())
    }
}

export!(Future);
