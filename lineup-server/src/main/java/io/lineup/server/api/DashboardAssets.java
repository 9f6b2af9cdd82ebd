package io.lineup.server.api;

import io.javalin.http.Context;
import io.lineup.server.auth.Principal;
import io.lineup.server.http.ApiException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;

/**
 * The web dashboard's files, served from the jar at {@code /ui}: its own page, script and style,
 * and the chart library uPlot from its WebJar. Only the files named here are served, with a
 * Content-Security-Policy that lets the page run its own scripts and nothing else (no inline
 * script, no other origin), so text from job data can never run as code.
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

  private record Asset(String resource, String contentType) {}

  private static final Map<String, Asset> OWN_FILES =
      Map.of(
          "app.js", new Asset(OWN + "app.js", "text/javascript; charset=utf-8"),
          "api.js", new Asset(OWN + "api.js", "text/javascript; charset=utf-8"),
          "dom.js", new Asset(OWN + "dom.js", "text/javascript; charset=utf-8"),
          "style.css", new Asset(OWN + "style.css", "text/css; charset=utf-8"));

  private static final Map<String, Asset> VENDOR_FILES =
      Map.of(
          "uPlot.esm.js", new Asset(UPLOT + "dist/uPlot.esm.js", "text/javascript; charset=utf-8"),
          "uPlot.min.css", new Asset(UPLOT + "dist/uPlot.min.css", "text/css; charset=utf-8"),
          "uPlot-LICENSE.txt", new Asset(UPLOT + "LICENSE", "text/plain; charset=utf-8"));

  private final Map<String, byte[]> cache = new java.util.concurrent.ConcurrentHashMap<>();

  /** {@code GET /ui}: the page. */
  public void page(Context ctx, Principal principal) {
    serve(ctx, new Asset(OWN + "index.html", "text/html; charset=utf-8"));
  }

  /** {@code GET /ui/{file}}: one of the dashboard's own files. */
  public void file(Context ctx, Principal principal) {
    serve(ctx, known(OWN_FILES, ctx.pathParam("file")));
  }

  /** {@code GET /ui/vendor/{file}}: uPlot's script, style or licence. */
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
    byte[] bytes = cache.computeIfAbsent(asset.resource(), DashboardAssets::load);
    ctx.status(200);
    ctx.contentType(asset.contentType());
    ctx.header("Content-Security-Policy", CONTENT_SECURITY_POLICY);
    ctx.header("X-Content-Type-Options", "nosniff");
    ctx.header("Referrer-Policy", "no-referrer");
    ctx.header("Cache-Control", "no-cache");
    ctx.result(bytes);
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
