//! The element names the parser and renderer know, and their HTML parsing
//! classes (void, raw text, implied `</p>`, block-level, formatting).

/// A known element, or `Other` (custom elements, MathML children, typos).
#[rustfmt::skip]
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Tag {
    A, Abbr, Address, Area, Article, Aside, Audio, B, Base, Big, Blockquote, Body, Br, Button,
    Canvas, Caption, Center, Cite, Code, Col, Colgroup, Datalist, Dd, Del, Details, Dfn, Dialog,
    Dir, Div, Dl, Dt, Em, Embed, Fieldset, Figcaption, Figure, Font, Footer, Form, Frame,
    Frameset, H1, H2, H3, H4, H5, H6, Head, Header, Hgroup, Hr, Html, I, Iframe, Img, Input, Ins,
    Kbd, Legend, Li, Link, Listing, Main, Map, Mark, Math, Menu, Meta, Nav, Nobr, Noembed,
    Noframes, Noscript, Object, Ol, Optgroup, Option, P, Param, Picture, Plaintext, Pre, Q, Rp,
    Rt, Ruby, S, Samp, Script, Search, Section, Select, Small, Source, Span, Strike, Strong,
    Style, Sub, Summary, Sup, Svg, Table, Tbody, Td, Template, Textarea, Tfoot, Th, Thead, Title,
    Tr, Track, Tt, U, Ul, Var, Video, Wbr, Xmp, Other,
}

/// How the tokenizer treats an element's content.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum RawText {
    /// Ordinary markup.
    No,
    /// Raw text up to the matching end tag, dropped with the element
    /// (`script`, `style`, `textarea`, `title`, `noscript`, `iframe`, ...).
    Skip,
    /// Raw text up to the matching end tag, kept as one text node (`xmp`).
    Keep,
    /// Everything to the end of the input is text (`plaintext`).
    Rest,
}

impl Tag {
    /// The tag for an ASCII-lowercased element name.
    #[rustfmt::skip]
    pub fn from_lowercase(name: &[u8]) -> Tag {
        use Tag::*;
        match name {
            b"a" => A, b"abbr" => Abbr, b"address" => Address, b"area" => Area,
            b"article" => Article, b"aside" => Aside, b"audio" => Audio, b"b" => B,
            b"base" => Base, b"big" => Big, b"blockquote" => Blockquote, b"body" => Body,
            b"br" => Br, b"button" => Button, b"canvas" => Canvas, b"caption" => Caption,
            b"center" => Center, b"cite" => Cite, b"code" => Code, b"col" => Col,
            b"colgroup" => Colgroup, b"datalist" => Datalist, b"dd" => Dd, b"del" => Del,
            b"details" => Details, b"dfn" => Dfn, b"dialog" => Dialog, b"dir" => Dir,
            b"div" => Div, b"dl" => Dl, b"dt" => Dt, b"em" => Em, b"embed" => Embed,
            b"fieldset" => Fieldset, b"figcaption" => Figcaption, b"figure" => Figure,
            b"font" => Font, b"footer" => Footer, b"form" => Form, b"frame" => Frame,
            b"frameset" => Frameset, b"h1" => H1, b"h2" => H2, b"h3" => H3, b"h4" => H4,
            b"h5" => H5, b"h6" => H6, b"head" => Head, b"header" => Header, b"hgroup" => Hgroup,
            b"hr" => Hr, b"html" => Html, b"i" => I, b"iframe" => Iframe, b"img" | b"image" => Img,
            b"input" => Input, b"ins" => Ins, b"kbd" => Kbd, b"legend" => Legend, b"li" => Li,
            b"link" => Link, b"listing" => Listing, b"main" => Main, b"map" => Map,
            b"mark" => Mark, b"math" => Math, b"menu" => Menu, b"meta" => Meta, b"nav" => Nav,
            b"nobr" => Nobr, b"noembed" => Noembed, b"noframes" => Noframes,
            b"noscript" => Noscript, b"object" => Object, b"ol" => Ol, b"optgroup" => Optgroup,
            b"option" => Option, b"p" => P, b"param" => Param, b"picture" => Picture,
            b"plaintext" => Plaintext, b"pre" => Pre, b"q" => Q, b"rp" => Rp, b"rt" => Rt,
            b"ruby" => Ruby, b"s" => S, b"samp" => Samp, b"script" => Script,
            b"search" => Search, b"section" => Section, b"select" => Select, b"small" => Small,
            b"source" => Source, b"span" => Span, b"strike" => Strike, b"strong" => Strong,
            b"style" => Style, b"sub" => Sub, b"summary" => Summary, b"sup" => Sup, b"svg" => Svg,
            b"table" => Table, b"tbody" => Tbody, b"td" => Td, b"template" => Template,
            b"textarea" => Textarea, b"tfoot" => Tfoot, b"th" => Th, b"thead" => Thead,
            b"title" => Title, b"tr" => Tr, b"track" => Track, b"tt" => Tt, b"u" => U,
            b"ul" => Ul, b"var" => Var, b"video" => Video, b"wbr" => Wbr, b"xmp" => Xmp,
            _ => Other,
        }
    }

    /// Elements that never have content or an end tag.
    pub fn is_void(self) -> bool {
        use Tag::*;
        matches!(
            self,
            Area | Base
                | Br
                | Col
                | Embed
                | Hr
                | Img
                | Input
                | Link
                | Meta
                | Param
                | Source
                | Track
                | Wbr
                | Frame
        )
    }

    /// How the tokenizer reads this element's content.
    pub fn raw_text(self) -> RawText {
        use Tag::*;
        match self {
            Script | Style | Textarea | Title | Noscript | Iframe | Noembed | Noframes | Template => {
                RawText::Skip
            }
            Xmp => RawText::Keep,
            Plaintext => RawText::Rest,
            _ => RawText::No,
        }
    }

    /// Start tags that close an open `<p>` (the standard's list).
    pub fn closes_p(self) -> bool {
        use Tag::*;
        matches!(
            self,
            Address
                | Article
                | Aside
                | Blockquote
                | Center
                | Details
                | Dialog
                | Dir
                | Div
                | Dl
                | Fieldset
                | Figcaption
                | Figure
                | Footer
                | Form
                | H1
                | H2
                | H3
                | H4
                | H5
                | H6
                | Header
                | Hgroup
                | Hr
                | Main
                | Menu
                | Nav
                | Ol
                | P
                | Pre
                | Listing
                | Search
                | Section
                | Summary
                | Table
                | Ul
                | Li
                | Dd
                | Dt
                | Plaintext
                | Xmp
        )
    }

    /// Block-level elements: their presence makes an inline ancestor render as
    /// a block container, and they stop the search for an inline end tag.
    pub fn is_block(self) -> bool {
        use Tag::*;
        self.closes_p()
            || matches!(
                self,
                Li | Dd
                    | Dt
                    | Tr
                    | Td
                    | Th
                    | Tbody
                    | Thead
                    | Tfoot
                    | Caption
                    | Colgroup
                    | Legend
                    | Body
                    | Html
            )
    }

    /// Formatting elements: their end tag closes across blocks (an
    /// approximation of the standard's adoption agency).
    pub fn is_formatting(self) -> bool {
        use Tag::*;
        matches!(
            self,
            A | B | Big | Code | Em | Font | I | Nobr | S | Small | Strike | Strong | Tt | U
        )
    }

    /// Elements that bound the search for an open element ("scope").
    pub fn is_scope_boundary(self) -> bool {
        use Tag::*;
        matches!(
            self,
            Table | Td | Th | Caption | Template | Html | Object | Button
        )
    }

    /// `h1`..`h6` → 1..6.
    pub fn heading_level(self) -> Option<u8> {
        use Tag::*;
        match self {
            H1 => Some(1),
            H2 => Some(2),
            H3 => Some(3),
            H4 => Some(4),
            H5 => Some(5),
            H6 => Some(6),
            _ => None,
        }
    }
}

/// The attributes the renderer reads; all others are not stored.
#[rustfmt::skip]
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum AttrName {
    Href, Src, Alt, Title, Class, Start, Value, Colspan, Rowspan, Type, Checked, Reversed,
    Alttext, DataLang,
}

impl AttrName {
    /// The known attribute for a name as written (any case).
    #[rustfmt::skip]
    pub fn parse(name: &[u8]) -> Option<AttrName> {
        use AttrName::*;
        let candidates: &[(&[u8], AttrName)] = match name.len() {
            3 => &[(b"src", Src), (b"alt", Alt)],
            4 => &[(b"href", Href), (b"type", Type)],
            5 => &[(b"title", Title), (b"class", Class), (b"start", Start), (b"value", Value)],
            7 => &[(b"colspan", Colspan), (b"rowspan", Rowspan), (b"checked", Checked), (b"alttext", Alttext)],
            8 => &[(b"reversed", Reversed)],
            9 => &[(b"data-lang", DataLang)],
            13 => &[(b"data-language", DataLang)],
            _ => return None,
        };
        candidates.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|&(_, a)| a)
    }
}
