package io.lineup.server;

import java.util.concurrent.Executor;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.internal.HttpConnection;
import org.eclipse.jetty.util.VirtualThreads;

/**
 * Jetty's HTTP/1.1 connections for the connections the {@link LaneConnection} hands on, whose
 * requests run on virtual threads like every other request.
 *
 * <p>Why: a connection handed on arrives with its first request already read, and Jetty's HTTP/1.1
 * connection runs such a request (as it runs a pipelined one) on its connection's executor, the
 * connector's pool of a few platform threads. A handler may block there (a long-poll, up to its
 * wait), so a burst of them would take every platform thread, selectors' included. Here that
 * executor is the pool's virtual-thread executor.
 */
final class HandedOverHttpConnectionFactory extends HttpConnectionFactory {
  HandedOverHttpConnectionFactory(HttpConfiguration configuration) {
    super(configuration);
  }

  @Override
  public Connection newConnection(Connector connector, EndPoint endPoint) {
    Executor pool = connector.getExecutor();
    Executor virtual = VirtualThreads.getVirtualThreadsExecutor(pool);
    Executor requests = virtual != null ? virtual : pool;
    HttpConnection connection =
        new HttpConnection(getHttpConfiguration(), connector, endPoint) {
          @Override
          protected Executor getExecutor() {
            return requests;
          }
        };
    connection.setTransferEncodingChunkMaxLength(getTransferEncodingChunkMaxLength());
    return configure(connection, connector, endPoint);
  }
}
