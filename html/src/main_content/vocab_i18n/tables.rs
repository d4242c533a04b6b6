//! The phrases of [`super`], by family: what a native page prints as a furniture label in
//! German, French, Spanish, Portuguese, Italian, Dutch, Polish, Russian, Turkish, Japanese,
//! Chinese (simplified and traditional) and Korean, each family with the uses it has
//! (bits of [`Use`]). Lower case, single spaces, a typographic apostrophe written
//! `'`. A trailing `*` lets a phrase end inside a word (Japanese and Chinese write no
//! spaces: "最後までお読みいただき*" matches "最後までお読みいただきありがとうございました");
//! any other phrase must end where a word does.

/// The uses a family of phrases has (bits).
pub(crate) struct Use;

impl Use {
    /// Furniture as the whole short text.
    pub const EXACT: u16 = 1;
    /// Furniture at the start of a short text.
    pub const PREFIX: u16 = 1 << 1;
    /// Title of a block of pointers to other pages, at the start of a short text.
    pub const POINTER: u16 = 1 << 2;
    /// Title of a comment section, at the start of a heading.
    pub const COMMENT: u16 = 1 << 3;
    /// A noun titling a comment section, at the start of a heading that says nothing more
    /// but a count ("Kommentare (12)", "댓글 3개"; not "Comentarios finales").
    pub const COMMENT_NOUN: u16 = 1 << 10;
    /// The same after a count only ("1 Kommentar").
    pub const COUNTED: u16 = 1 << 4;
    /// A title of a comment section after a count, with what it is on ("12 Kommentare zu
    /// „…“", the English "12 thoughts on “…”").
    pub const COUNTED_ON: u16 = 1 << 11;
    /// Title of a box after a post, at the start of a title's text.
    pub const TITLE: u16 = 1 << 5;
    /// A call to the reader closing a post, at the start of a block's text.
    pub const CALL: u16 = 1 << 6;
    /// A footer line's label (tags, categories), with a colon.
    pub const TAG_LABEL: u16 = 1 << 7;
    /// A "read also" line's label, with a colon.
    pub const READ_LABEL: u16 = 1 << 8;
    /// A reading-time line's opening (from its first letter: a count before it is dropped).
    pub const READING: u16 = 1 << 9;
}

/// A family: the uses its phrases have, and the phrases.
pub(super) struct Family {
    pub uses: u16,
    pub phrases: &'static [&'static str],
}

/// Whole short texts that are page furniture (the English `phrases::EXACT`): buttons,
/// links and labels of sharing, accounts, searching, paging, consent and legal notices.
#[rustfmt::skip]
const CHROME: &[&str] = &[
    // German
    "akzeptieren", "alle akzeptieren", "alle anzeigen", "alle rechte vorbehalten", "anmelden",
    "artikel teilen", "beitrag teilen", "datenschutz", "datenschutzerklärung",
    "drucken", "impressum", "inhaltsverzeichnis", "jetzt teilen", "kontakt", "link kopieren",
    "mehr", "mehr anzeigen", "mehr lesen", "menü", "nach oben", "registrieren", "schließen",
    "startseite", "suche", "weiterlesen", "zurück",
    // French
    "accepter", "accueil", "afficher plus", "copier le lien", "fermer", "imprimer", "inscription",
    "j'aime", "lire la suite", "mentions légales", "nous contacter", "partager cet article",
    "partager l'article", "politique de confidentialité", "rechercher", "répondre",
    "retour", "retour en haut", "se connecter", "s'inscrire", "signaler", "sommaire", "suivez-nous",
    "table des matières", "tous droits réservés", "tout accepter", "voir plus", "voir tout",
    // Spanish
    "aceptar", "aceptar todo", "aviso legal", "buscar", "cerrar", "contacto", "copiar enlace",
    "denunciar", "imprimir", "iniciar sesión", "inicio", "leer más", "me gusta", "mostrar más",
    "política de privacidad", "registrarse", "responder", "seguir leyendo", "síguenos",
    "tabla de contenidos", "todos los derechos reservados", "ver más", "ver todo", "volver",
    "volver arriba",
    // Portuguese
    "aceitar", "aceitar todos", "cadastre-se", "continuar lendo", "continue lendo", "copiar link",
    "curtir", "entrar", "fale conosco", "fechar", "início", "leia mais", "mostrar mais",
    "pesquisar", "política de privacidade", "siga-nos", "todos os direitos reservados", "ver mais",
    "ver tudo", "voltar", "voltar ao topo",
    // Italian
    "accedi", "accetta", "accetta tutti", "cerca", "chiudi", "contattaci", "continua a leggere",
    "copia link", "leggi di più", "leggi tutto", "mi piace", "mostra di più", "registrati",
    "rispondi", "segnala", "seguici", "torna su", "tutti i diritti riservati", "vedi tutti",
    "vedi tutto",
    // Dutch
    "accepteren", "afdrukken", "alle rechten voorbehouden", "alles accepteren", "bekijk alles",
    "inhoudsopgave", "inloggen", "lees meer", "meer", "naar boven", "privacybeleid", "reageren",
    "registreren", "sluiten", "toon meer", "verder lezen", "volg ons", "zoeken",
    // Polish
    "czytaj dalej", "czytaj więcej", "do góry", "drukuj", "kopiuj link", "obserwuj", "odpowiedz",
    "pokaż więcej", "polityka prywatności", "spis treści", "strona główna", "szukaj",
    "wszelkie prawa zastrzeżone", "wyszukaj", "zaakceptuj wszystkie", "zaloguj się", "zamknij",
    "zarejestruj się", "zgłoś", "zobacz więcej", "zobacz wszystkie",
    // Russian
    "вход", "войти", "все права защищены", "главная", "ещё", "закрыть", "зарегистрироваться",
    "копировать ссылку", "наверх", "назад", "оглавление", "ответить", "печать", "поиск",
    "подробнее", "показать все", "показать ещё", "показать еще", "политика конфиденциальности",
    "пожаловаться", "принять", "принять все", "распечатать", "регистрация", "скопировать ссылку",
    "читать далее", "читать дальше", "читать полностью",
    // Turkish
    "ana sayfa", "anasayfa", "bağlantıyı kopyala", "başa dön", "bizi takip edin", "cevapla",
    "daha fazla göster", "devamını oku", "gizlilik politikası", "giriş yap", "hepsini gör",
    "iletişim", "içindekiler", "kapat", "kayıt ol", "linki kopyala", "tümünü gör",
    "tümünü kabul et", "tüm hakları saklıdır", "üye ol", "yanıtla", "yazdır",
    // Japanese
    "いいね", "お問い合わせ", "すべて見る", "もっと見る", "トップへ戻る", "プライバシーポリシー", "ホーム", "メニュー", "ログイン", "リンクをコピー",
    "印刷", "会員登録", "閉じる", "目次", "続きを読む", "新規登録", "検索", "返信", "返信する", "同意する",
    // Chinese (simplified, traditional)
    "关闭", "关注我们", "加载更多", "复制链接", "举报", "联系我们", "目录", "首页", "搜索", "隐私政策", "阅读全文", "阅读更多", "查看更多",
    "返回顶部", "登录", "注册", "回复", "關閉", "複製連結", "檢舉", "聯絡我們", "目錄", "首頁", "搜尋", "隱私權政策", "閱讀全文", "閱讀更多",
    "載入更多", "返回頂部", "登入", "註冊", "回覆",
    // Korean
    "검색", "닫기", "더 보기", "더보기", "로그인", "링크 복사", "맨 위로", "목차", "문의하기", "신고하기", "전체보기", "좋아요", "회원가입",
    "답글 달기",
];

/// Sharing, subscribing and advertising labels: furniture as whole texts, and titles of
/// the boxes after a post (the English closing `TITLES` "share", "subscribe",
/// "advertisement").
#[rustfmt::skip]
const SHARE_SUBSCRIBE_ADS: &[&str] = &[
    "abonnieren", "anzeige", "jetzt abonnieren", "newsletter abonnieren", "teilen", "werbung",
    "abonnez-vous", "partager", "publicité", "s'abonner", "compartir", "publicidad", "suscríbete",
    "suscribirse", "assine", "compartilhar", "inscreva-se", "partilhar", "publicidade", "condividi",
    "iscriviti", "pubblicità", "abonneren", "advertentie", "delen", "reklama", "subskrybuj",
    "udostępnij", "подписаться", "подпишитесь", "поделиться", "реклама", "abone ol", "paylaş",
    "reklam", "シェア", "シェアする", "スポンサーリンク", "広告", "分享", "广告", "廣告", "订阅", "訂閱", "공유", "공유하기", "광고",
    "구독", "구독하기",
];

/// Titles of blocks pointing to other pages ("Related posts", "Read also", "Most read",
/// "You may also like"): pointer titles, furniture at the start of a short text, titles
/// of the boxes after a post, and labels of "read also" lines ("Lesen Sie auch: …").
#[rustfmt::skip]
const RELATED: &[&str] = &[
    "ähnliche artikel", "ähnliche beiträge", "auch interessant", "beliebte beiträge",
    "das könnte dich auch interessieren", "das könnte sie auch interessieren", "lesen sie auch",
    "lies auch", "mehr zum thema", "meistgelesen", "neueste beiträge", "verwandte artikel",
    "weitere artikel", "weitere beiträge", "à lire aussi", "a lire aussi", "articles les plus lus",
    "articles récents", "articles similaires", "dans la même rubrique", "les plus lus",
    "lire aussi", "sur le même sujet", "vous aimerez aussi", "vous aimerez peut-être",
    "vous pourriez aimer", "artículos relacionados", "entradas relacionadas", "lee también",
    "lo más leído", "más leídas", "más noticias", "noticias relacionadas",
    "publicaciones relacionadas", "también te puede interesar", "te puede interesar",
    "te podría interesar", "artigos relacionados", "leia também", "mais lidas",
    "notícias relacionadas", "posts relacionados", "veja também", "você também pode gostar",
    "você pode gostar", "altri articoli", "articoli correlati", "articoli più letti", "i più letti",
    "leggi anche", "potrebbe interessarti", "ti potrebbe interessare", "potrebbero interessarti",
    "gerelateerde artikelen", "gerelateerde berichten", "lees ook", "meest gelezen", "czytaj także",
    "czytaj też", "najczęściej czytane", "podobne artykuły", "podobne wpisy", "polecane artykuły",
    "przeczytaj także", "przeczytaj też", "zobacz także", "zobacz też", "читайте также",
    "похожие записи", "похожие новости", "похожие статьи", "популярные статьи", "самое читаемое",
    "другие новости", "bunlar da ilginizi çekebilir", "benzer haberler",
    "benzer yazılar", "en çok okunanlar", "ilginizi çekebilir", "ilgili haberler", "ilgili yazılar",
    "あわせて読みたい", "おすすめ記事", "こちらもおすすめ", "人気記事", "関連記事", "関連する記事", "相关文章", "相关阅读", "推荐阅读", "延伸阅读",
    "热门文章", "相關文章", "相關閱讀", "推薦閱讀", "延伸閱讀", "熱門文章", "관련 기사", "관련기사", "관련 글", "관련글", "많이 본 뉴스",
    "인기 기사", "추천 기사",
];

/// Titles of a comment section: a heading saying nothing more but a count ("12
/// Kommentare", "Kommentare (3)", "コメント", "댓글 3개"), and furniture as the whole text
/// ("Comentarios finales" titles an article's last section).
#[rustfmt::skip]
const COMMENT_HEADS: &[&str] = &[
    "kommentare", "keine kommentare", "leserkommentare", "commentaires", "aucun commentaire",
    "comentarios", "sin comentarios", "comentários", "sem comentários", "commenti",
    "nessun commento", "reacties", "geen reacties", "komentarze", "brak komentarzy", "комментарии",
    "нет комментариев", "yorumlar", "コメント", "コメント一覧", "件のコメント", "评论", "条评论", "網友評論", "网友评论", "評論",
    "條評論", "則留言", "留言", "댓글", "개의 댓글",
];

/// Calls to comment ("Leave a reply"): comment titles, furniture at the start of a short
/// text, and calls closing a post.
#[rustfmt::skip]
const COMMENT_CALLS: &[&str] = &[
    "einen kommentar schreiben", "hinterlasse einen kommentar", "kommentar schreiben",
    "kommentar verfassen", "schreibe einen kommentar", "ajouter un commentaire",
    "laisser un commentaire", "laissez un commentaire", "laisser une réponse", "añadir comentario",
    "deja tu comentario", "deja un comentario", "deja una respuesta", "adicionar comentário",
    "deixe seu comentário", "deixe um comentário", "deixe uma resposta", "aggiungi un commento",
    "lascia un commento", "scrivi un commento", "geef een reactie", "laat een reactie achter",
    "plaats een reactie", "dodaj komentarz", "napisz komentarz", "zostaw komentarz",
    "добавить комментарий", "написать комментарий", "оставить комментарий", "оставьте комментарий",
    "bir cevap yazın", "bir yanıt yazın", "yorum yap", "yorum yapın", "コメントする", "コメントを書く",
    "コメントを残す", "发表评论", "發表評論", "发表留言", "發表留言", "댓글 남기기", "댓글 달기", "댓글 쓰기",
];

/// Comment titles only after a count ("1 Kommentar", "5 комментариев"): alone, the
/// singular can name an article's own commentary ("Kommentar", "Commento").
#[rustfmt::skip]
const COUNTED: &[&str] = &[
    "kommentar", "commentaire", "comentario", "comentário", "commento", "reactie", "komentarz",
    "komentarzy", "комментарий", "комментария", "комментариев", "yorum",
];

/// Labels of a post's tags and categories, each followed by a colon in a footer line
/// ("Schlagwörter: …", "タグ：…"), and titles of the boxes after a post.
#[rustfmt::skip]
const TAGS: &[&str] = &[
    "abgelegt unter", "kategorie", "kategorien", "schlagwörter", "schlagworte", "themen",
    "catégorie", "catégories", "classé dans", "étiquettes", "mots-clés", "mots clés",
    "archivado en", "categoría", "categorías", "etiquetas", "categoria", "categorias", "marcadores",
    "argomenti", "categorie", "categorieën", "trefwoorden", "kategoria", "kategorie", "tagi",
    "категория", "категории", "метки", "рубрика", "рубрики", "теги", "etiketler", "kategori",
    "kategoriler", "カテゴリー", "カテゴリ", "タグ", "分类", "标签", "分類", "標籤", "분류", "카테고리", "태그",
];

/// The box about the writer ("About the author"): furniture as a whole text, and titles
/// of the boxes after a post.
#[rustfmt::skip]
const BIO: &[&str] = &[
    "über den autor", "über die autorin", "zum autor", "à propos de l'auteur",
    "à propos de l'autrice", "sobre el autor", "sobre la autora", "sobre o autor", "sobre a autora",
    "sull'autore", "over de auteur", "o autorze", "об авторе", "yazar hakkında", "この記事を書いた人",
    "著者について", "著者プロフィール", "关于作者", "作者简介", "關於作者", "作者簡介", "저자 소개", "필자 소개",
];

/// The links to the previous and next post: furniture as whole texts, and titles of the
/// boxes after a post.
#[rustfmt::skip]
const PAGER: &[&str] = &[
    "nächster artikel", "nächster beitrag", "vorheriger artikel", "vorheriger beitrag",
    "article précédent", "article suivant", "artículo anterior", "artículo siguiente",
    "entrada anterior", "entrada siguiente", "artigo anterior", "próximo artigo", "post anterior",
    "próximo post", "articolo precedente", "articolo successivo", "volgend artikel",
    "vorig artikel", "następny artykuł", "następny wpis", "poprzedni artykuł", "poprzedni wpis",
    "предыдущая запись", "предыдущая статья", "следующая запись", "следующая статья",
    "önceki haber", "önceki yazı", "sonraki haber", "sonraki yazı", "前の記事", "次の記事", "上一篇", "下一篇",
    "다음 글", "다음글", "이전 글", "이전글",
];

/// A byline's or date line's opening ("Geschrieben von …", "Publié le …", "投稿日：…"):
/// furniture at the start of a short text (the English "posted by", "published on").
#[rustfmt::skip]
const BYLINES: &[&str] = &[
    "aktualisiert am", "geschrieben von", "veröffentlicht am", "verfasst von",
    "zuletzt aktualisiert", "écrit par", "mis à jour le", "publié le", "actualizado el",
    "escrito por", "publicado el", "atualizado em", "publicado em", "aggiornato il",
    "pubblicato il", "scritto da", "bijgewerkt op", "geschreven door", "gepubliceerd op",
    "opublikowano", "обновлено", "опубликовано", "投稿日", "公開日", "更新日", "发布于", "发布时间", "更新于", "發布於",
    "發佈於", "작성일", "수정일",
];

/// Calls to the reader closing a post: subscribe to the newsletter, share the article,
/// thanks for reading (the English closing `CALLS`).
#[rustfmt::skip]
const CALLS: &[&str] = &[
    "abonnieren sie unseren", "danke fürs lesen", "hat dir der artikel gefallen",
    "hat dir dieser artikel gefallen", "hat ihnen der artikel gefallen",
    "hat ihnen dieser artikel gefallen", "teilen sie diesen artikel", "vielen dank fürs lesen",
    "zum newsletter", "cet article vous a plu", "inscrivez-vous à la newsletter",
    "inscrivez-vous à notre", "merci d'avoir lu", "merci de votre lecture", "partagez cet article",
    "recevez notre newsletter", "vous avez aimé cet article", "comparte este artículo",
    "gracias por leer", "suscríbete a nuestro", "te gustó este artículo",
    "te ha gustado este artículo", "assine nossa newsletter", "compartilhe este artigo",
    "gostou deste artigo", "gostou desse artigo", "obrigado por ler", "receba nossa",
    "condividi questo articolo", "grazie per aver letto", "iscriviti alla newsletter",
    "iscriviti alla nostra newsletter", "ti è piaciuto questo articolo", "abonneer je op",
    "bedankt voor het lezen", "deel dit artikel", "meld je aan voor onze nieuwsbrief",
    "schrijf je in voor", "dziękuję za przeczytanie", "dzięki za przeczytanie",
    "podobał ci się ten artykuł", "udostępnij ten artykuł", "zapisz się do newslettera",
    "zapisz się na newsletter", "подписывайтесь на", "подпишитесь на", "поделитесь статьей",
    "поделитесь этой статьей", "понравилась статья", "спасибо за прочтение", "bu yazıyı paylaş",
    "bültenimize abone olun", "okuduğunuz için teşekkürler", "この記事が気に入ったら*", "この記事をシェア*",
    "最後までお読みいただき*", "最後まで読んでいただき*", "メルマガ登録*", "ニュースレターに登録*", "感谢阅读*", "感谢您的阅读*", "感謝閱讀*", "欢迎关注*",
    "欢迎订阅*", "歡迎訂閱*", "订阅我们的*", "訂閱我們的*", "뉴스레터 구독", "읽어주셔서 감사합니다",
];

/// Reading-time lines ("5 Min. Lesezeit", "Lesezeit: 5 Minuten", "この記事は約5分で読めます"),
/// from their first letter (the English `reading_time::OPENINGS`).
#[rustfmt::skip]
const READING: &[&str] = &[
    // German
    "lesedauer", "lesezeit", "min lesezeit", "min. lesezeit", "minuten lesezeit",
    // French
    "min de lecture", "minutes de lecture", "temps de lecture",
    // Spanish
    "min de lectura", "minutos de lectura", "tiempo de lectura",
    // Portuguese
    "min de leitura", "minutos de leitura", "tempo de leitura",
    // Italian
    "min di lettura", "minuti di lettura", "tempo di lettura",
    // Dutch
    "leestijd", "min leestijd", "minuten leestijd",
    // Polish
    "czas czytania", "min czytania", "minut czytania",
    // Russian
    "время чтения", "мин чтения", "минут чтения", "минуты чтения",
    // Turkish
    "dakika okuma", "dk okuma", "okuma süresi",
    // Japanese, Chinese, Korean
    "この記事は約*", "分で読めます", "読了時間", "阅读时间", "閱讀時間", "预计阅读时间", "預計閱讀時間",
    "분 읽기", "읽는 시간",
];

/// A blog platform's comment-section title after a count, with what the comments are on
/// (WordPress's translations of "12 thoughts on “…”"), and the same opening with a number
/// word (comment titles as they are).
#[rustfmt::skip]
const COUNTED_ON: &[&str] = &[
    "kommentar zu", "kommentare zu", "réflexion sur", "réflexions sur", "commentaires sur",
    "comentario en", "comentarios en", "comentário em", "comentários em", "commenti su",
    "commento su", "reactie op", "reacties op", "komentarz do", "komentarze do", "komentarzy do",
    "комментарий к", "комментария к", "комментариев к",
];
#[rustfmt::skip]
const NUMBER_WORD_TITLES: &[&str] = &[
    "ein kommentar zu", "une réflexion sur", "un comentario en", "um comentário em",
    "un commento su", "eén reactie op", "één reactie op", "jeden komentarz do",
    "один комментарий к",
];

/// The families with their uses.
pub(super) const FAMILIES: &[Family] = &[
    Family {
        uses: Use::EXACT,
        phrases: CHROME,
    },
    Family {
        uses: Use::EXACT | Use::TITLE,
        phrases: SHARE_SUBSCRIBE_ADS,
    },
    Family {
        uses: Use::PREFIX | Use::POINTER | Use::TITLE | Use::READ_LABEL,
        phrases: RELATED,
    },
    Family {
        uses: Use::EXACT | Use::COMMENT_NOUN,
        phrases: COMMENT_HEADS,
    },
    Family {
        uses: Use::PREFIX | Use::COMMENT | Use::CALL,
        phrases: COMMENT_CALLS,
    },
    Family {
        uses: Use::COUNTED,
        phrases: COUNTED,
    },
    Family {
        uses: Use::COUNTED_ON,
        phrases: COUNTED_ON,
    },
    Family {
        uses: Use::COMMENT,
        phrases: NUMBER_WORD_TITLES,
    },
    Family {
        uses: Use::TAG_LABEL | Use::TITLE,
        phrases: TAGS,
    },
    Family {
        uses: Use::EXACT | Use::TITLE,
        phrases: BIO,
    },
    Family {
        uses: Use::EXACT | Use::TITLE,
        phrases: PAGER,
    },
    Family {
        uses: Use::PREFIX,
        phrases: BYLINES,
    },
    Family {
        uses: Use::CALL,
        phrases: CALLS,
    },
    Family {
        uses: Use::READING,
        phrases: READING,
    },
];
