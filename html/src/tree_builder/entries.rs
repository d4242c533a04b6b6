//! The entries the tree builder keeps: the namespaces it makes elements in, the stack of
//! open elements' entries (node, namespace, name) and the list of active formatting
//! elements' entries (a marker, or a node with the tag it was made for).

use dom_query::NodeId;
use html5ever::tokenizer::Tag;
use html5ever::{LocalName, Namespace, local_name, ns};

/// The namespaces elements are made in here.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Ns {
    Html,
    Svg,
    MathMl,
}

impl Ns {
    pub(crate) fn namespace(self) -> Namespace {
        match self {
            Ns::Html => ns!(html),
            Ns::Svg => ns!(svg),
            Ns::MathMl => ns!(mathml),
        }
    }
}

/// An entry of the stack of open elements.
#[derive(Clone, Debug)]
pub(crate) struct Open {
    pub(crate) id: NodeId,
    pub(crate) ns: Ns,
    pub(crate) name: LocalName,
}

impl Open {
    pub(crate) fn is(&self, name: &LocalName) -> bool {
        self.ns == Ns::Html && self.name == *name
    }

    pub(crate) fn html(&self) -> Option<&LocalName> {
        (self.ns == Ns::Html).then_some(&self.name)
    }

    /// An SVG element where HTML goes on (`foreignObject`, `desc`, `title`).
    pub(crate) fn svg_integration_point(&self) -> bool {
        self.ns == Ns::Svg
            && matches!(
                self.name,
                local_name!("foreignObject") | local_name!("desc") | local_name!("title")
            )
    }

    pub(crate) fn mathml_text_integration_point(&self) -> bool {
        self.ns == Ns::MathMl
            && matches!(
                self.name,
                local_name!("mi")
                    | local_name!("mo")
                    | local_name!("mn")
                    | local_name!("ms")
                    | local_name!("mtext")
            )
    }
}

/// An entry of the list of active formatting elements. An element's entry holds the tag
/// it was made for without its attributes: the element holds them (see
/// `Builder::attrs_of`).
pub(crate) enum Entry {
    Marker,
    Element { id: NodeId, tag: Tag },
}
