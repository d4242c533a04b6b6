use super::{Lanes, serve};
use axum::Router;
use axum::routing::get;
use std::sync::Arc;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Notify, oneshot};

/// Where a request ran: the serving lane and thread of its handler, and the
/// lane of a task the handler spawned.
async fn whereabouts() -> String {
    let spawned = tokio::spawn(async { crate::lane::current() }).await.unwrap();
    format!(
        "{:?} {:?} {}",
        crate::lane::current(),
        spawned,
        std::thread::current().name().unwrap_or("?")
    )
}

/// One HTTP/1.1 GET on an open connection; returns the status and the body.
async fn get_on(conn: &mut BufReader<TcpStream>, path: &str) -> (u16, String) {
    let request = format!("GET {path} HTTP/1.1\r\nhost: test\r\n\r\n");
    conn.get_mut().write_all(request.as_bytes()).await.unwrap();
    let mut line = String::new();
    conn.read_line(&mut line).await.unwrap();
    let status = line.split(' ').nth(1).unwrap().parse().unwrap();
    let mut length = 0;
    loop {
        line.clear();
        conn.read_line(&mut line).await.unwrap();
        if line == "\r\n" {
            break;
        }
        if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
            length = v.trim().parse().unwrap();
        }
    }
    let mut body = vec![0; length];
    conn.read_exact(&mut body).await.unwrap();
    (status, String::from_utf8(body).unwrap())
}

async fn connect(addr: std::net::SocketAddr) -> BufReader<TcpStream> {
    BufReader::new(TcpStream::connect(addr).await.unwrap())
}

/// A server of `router` on `threads` serving threads: its address, the
/// sender that shuts it down and its task.
async fn start(
    router: Router,
    threads: usize,
) -> (
    std::net::SocketAddr,
    oneshot::Sender<()>,
    tokio::task::JoinHandle<std::io::Result<Lanes>>,
) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (stop, stopped) = oneshot::channel::<()>();
    let server = tokio::spawn(serve(listener, router, threads, async {
        let _ = stopped.await;
    }));
    (addr, stop, server)
}

#[tokio::test]
async fn a_connections_requests_and_their_tasks_stay_on_one_serving_thread() {
    let (addr, stop, server) = start(Router::new().route("/where", get(whereabouts)), 2).await;
    let mut seen = Vec::new();
    for _ in 0..4 {
        let mut conn = connect(addr).await;
        let (status, first) = get_on(&mut conn, "/where").await;
        assert_eq!(status, 200);
        for _ in 0..5 {
            assert_eq!(get_on(&mut conn, "/where").await, (200, first.clone()));
        }
        seen.push(first);
    }
    // Connections go to the lanes in turn; each lane is its own named thread,
    // and what a handler spawns runs on the handler's lane.
    assert_eq!(
        seen,
        [
            "Some(0) Some(0) distill-serve-0",
            "Some(1) Some(1) distill-serve-1",
            "Some(0) Some(0) distill-serve-0",
            "Some(1) Some(1) distill-serve-1",
        ]
    );
    stop.send(()).unwrap();
    server.await.unwrap().unwrap();
}

#[tokio::test]
async fn shutdown_lets_the_request_in_flight_finish_and_refuses_new_connections() {
    let (entered, release) = (Arc::new(Notify::new()), Arc::new(Notify::new()));
    let (e, r) = (entered.clone(), release.clone());
    let router = Router::new().route(
        "/slow",
        get(move || async move {
            e.notify_one();
            r.notified().await;
            "finished"
        }),
    );
    let (addr, stop, server) = start(router, 2).await;
    let mut conn = connect(addr).await;
    let request = tokio::spawn(async move { get_on(&mut conn, "/slow").await });
    entered.notified().await;
    stop.send(()).unwrap();
    // The server waits for the request in flight.
    tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    assert!(!server.is_finished());
    assert!(TcpStream::connect(addr).await.is_err());
    release.notify_one();
    assert_eq!(request.await.unwrap(), (200, "finished".to_string()));
    server.await.unwrap().unwrap();
}

#[tokio::test]
async fn an_idle_keep_alive_connection_does_not_hold_up_shutdown() {
    let (addr, stop, server) = start(Router::new().route("/where", get(whereabouts)), 1).await;
    let mut conn = connect(addr).await;
    assert_eq!(get_on(&mut conn, "/where").await.0, 200);
    stop.send(()).unwrap();
    server.await.unwrap().unwrap();
    // The server closed the idle connection.
    let mut rest = Vec::new();
    assert_eq!(conn.read_to_end(&mut rest).await.unwrap(), 0);
}

#[tokio::test]
async fn a_task_a_handler_spawned_runs_on_after_the_server_stops_until_the_lanes_go() {
    // The handler spawns a task that answers `ask` once the test asks, after
    // the server has stopped; `done` closes when the task is dropped.
    type Slot = std::sync::Mutex<Option<(oneshot::Receiver<()>, oneshot::Sender<&'static str>)>>;
    let (ask, asked) = oneshot::channel::<()>();
    let (answer, answered) = oneshot::channel::<&'static str>();
    let slot: Arc<Slot> = Arc::new(std::sync::Mutex::new(Some((asked, answer))));
    let (held, mut dropped) = oneshot::channel::<()>();
    let held = Arc::new(std::sync::Mutex::new(Some(held)));
    let router = Router::new().route(
        "/spawn",
        get(move || {
            let (slot, held) = (slot.clone(), held.clone());
            async move {
                let (asked, answer) = slot.lock().unwrap().take().unwrap();
                let held = held.lock().unwrap().take().unwrap();
                tokio::spawn(async move {
                    let _held = held;
                    if asked.await.is_ok() {
                        let _ = answer.send("still running");
                    }
                    std::future::pending::<()>().await;
                });
                "spawned"
            }
        }),
    );
    let (addr, stop, server) = start(router, 1).await;
    let mut conn = connect(addr).await;
    assert_eq!(get_on(&mut conn, "/spawn").await, (200, "spawned".to_string()));
    drop(conn);
    stop.send(()).unwrap();
    let lanes = server.await.unwrap().unwrap();
    // The server has stopped serving; its lane still drives the task.
    ask.send(()).unwrap();
    assert_eq!(answered.await.unwrap(), "still running");
    assert!(
        dropped
            .try_recv()
            .is_err_and(|e| e == oneshot::error::TryRecvError::Empty)
    );
    // Dropping the lanes ends the thread's runtime and the task with it.
    drop(lanes);
    assert!(dropped.await.is_err());
}
