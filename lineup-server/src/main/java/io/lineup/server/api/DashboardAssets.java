package io.lineup.server.api;

import io.javalin.http.Context;
import io.lineup.server.auth.Principal;
import io.lineup.server.http.ApiException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The web dashboard's files, served from the jar at {@code /ui}: its own page, scripts, style and
 * icon, and the chart library uPlot from its WebJar. Only the files named here are served, with a
 * Content-Security-Policy that lets the page run its own scripts and nothing else (no inline
 * script, no other origin), so text from job data can never run as code.
 *
 * <p>Each file is sent gzip-compressed to a client that accepts it, with an {@code ETag}: a request
 * that names the current tag in {@code If-None-Match} is answered 304 without a body. {@code HEAD}
 * answers carry the same headers as {@code GET} without the body.
 */
public final class DashboardAssets {
  /** Where the dashboard's own files are in the jar. */
  static final String OWN = "/io/lineup/server/ui/";

  /** Where the uPlot WebJar keeps its files. */
  static final String UPLOT = "/META-INF/resources/webjars/uplot/1.6.30/";

  /** The policy every dashboard file is served with. */
  public static final String CONTENT_SECURITY_POLICY =
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:;"
          + " connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

  private static final String SCRIPT = "text/javascript; charset=utf-8";

  /** The dashboard's own script modules, one per page or concern. */
  public static final List<String> SCRIPTS =
      List.of(
          "app.js",
          "api.js",
          "dom.js",
          "poll.js",
          "notice.js",
          "parts.js",
          "chart.js",
          "overview.js",
          "queue.js",
          "keys.js",
          "paging.js",
          "jobs.js",
          "running.js",
          "schedules.js",
          "job.js",
          "endpoint.js",
          "tasks.js",
          "room.js",
          "tickets.js");

  // Before OWN_FILES, which takes ICON.
  private static final Asset PAGE = new Asset(OWN + "index.html", "text/html; charset=utf-8");

  private static final Asset ICON = new Asset(OWN + "favicon.ico", "image/x-icon");

  private static final Map<String, Asset> OWN_FILES = ownFiles();

  private static final Map<String, Asset> VENDOR_FILES =
      Map.of(
          "uPlot.esm.js", new Asset(UPLOT + "dist/uPlot.esm.js", SCRIPT),
          "uPlot.min.css", new Asset(UPLOT + "dist/uPlot.min.css", "text/css; charset=utf-8"),
          "uPlot-LICENSE.txt", new Asset(UPLOT + "LICENSE", "text/plain; charset=utf-8"));

  private record Asset(String resource, String contentType) {}

  private final Map<String, DashboardFile> cache = new ConcurrentHashMap<>();

  private static Map<String, Asset> ownFiles() {
    Map<String, Asset> files =
        SCRIPTS.stream()
            .collect(Collectors.toMap(Function.identity(), name -> new Asset(OWN + name, SCRIPT)));
    files.put("style.css", new Asset(OWN + "style.css", "text/css; charset=utf-8"));
    files.put("favicon.ico", ICON);
    return Map.copyOf(files);
  }

  /** {@code GET} and {@code HEAD /ui}: the page. */
  public void page(Context ctx, Principal principal) {
    serve(ctx, PAGE);
  }

  /** {@code GET} and {@code HEAD /favicon.ico}: the dashboard's icon, where browsers look first. */
  public void icon(Context ctx, Principal principal) {
    serve(ctx, ICON);
  }

  /** {@code GET} and {@code HEAD /ui/{file}}: one of the dashboard's own files. */
  public void file(Context ctx, Principal principal) {
    serve(ctx, known(OWN_FILES, ctx.pathParam("file")));
  }

  /** {@code GET} and {@code HEAD /ui/vendor/{file}}: uPlot's script, style or licence. */
  public void vendor(Context ctx, Principal principal) {
    serve(ctx, known(VENDOR_FILES, ctx.pathParam("file")));
  }

  private static Asset known(Map<String, Asset> files, String name) {
    Asset asset = files.get(name);
    if (asset == null) {
      throw ApiException.notFound("no dashboard file " + name);
    }
    return asset;
  }

  private void serve(Context ctx, Asset asset) {
    DashboardFile file =
        cache.computeIfAbsent(asset.resource(), resource -> DashboardFile.of(load(resource)));
    boolean gzip = DashboardFile.acceptsGzip(ctx.header("Accept-Encoding"));
    String etag = file.etag(gzip);
    ctx.contentType(asset.contentType());
    ctx.header("Content-Security-Policy", CONTENT_SECURITY_POLICY);
    ctx.header("X-Content-Type-Options", "nosniff");
    ctx.header("Referrer-Policy", "no-referrer");
    // Kept, but checked with the server (ETag) before each use: a new release shows at once.
    ctx.header("Cache-Control", "no-cache");
    ctx.header("Vary", "Accept-Encoding");
    ctx.header("ETag", etag);
    if (DashboardFile.matches(ctx.header("If-None-Match"), etag)) {
      ctx.status(304);
      return;
    }
    byte[] bytes = file.bytes(gzip);
    ctx.status(200);
    if (gzip) {
      ctx.header("Content-Encoding", "gzip");
    }
    ctx.header("Content-Length", Integer.toString(bytes.length));
    if (!"HEAD".equals(ctx.method().name())) {
      ctx.result(bytes);
    }
  }

  private static byte[] load(String resource) {
    try (InputStream in = DashboardAssets.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException("The dashboard file " + resource + " is missing");
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
